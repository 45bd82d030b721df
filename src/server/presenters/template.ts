import type { TemplateStructure } from "../../shared/document-model/structure.js";
import {
  TEMPLATE_STATUSES,
  type TemplateDetail,
  type TemplateStatus,
  type TemplateSummary,
  type TemplateVersion,
} from "../../shared/schemas/template.js";

interface TemplateRowLike {
  id: string;
  titulo: string;
  especialidade: string;
  categoria: string;
  status: string;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface SummaryInput {
  template: TemplateRowLike;
  criador_nome: string | null;
  versao_atual: number | null;
  usos: number;
}

/** An unknown stored status leaves the server as draft (spec part 2 §2 Template view). */
function knownStatus(status: string): TemplateStatus {
  return (TEMPLATE_STATUSES as readonly string[]).includes(status) ? (status as TemplateStatus) : "draft";
}

export function presentTemplateSummary(row: SummaryInput): TemplateSummary {
  const t = row.template;
  return {
    id: t.id,
    titulo: t.titulo,
    especialidade: t.especialidade,
    categoria: t.categoria,
    status: knownStatus(t.status),
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
    created_by: t.created_by,
    criador_nome: row.criador_nome,
    versao_atual: row.versao_atual,
    usos: row.usos,
  };
}

export function presentTemplateDetail(
  row: SummaryInput,
  version: { id: string; hash_modelo: string } | undefined,
  estrutura: TemplateStructure,
): TemplateDetail {
  return {
    ...presentTemplateSummary(row),
    versao_atual_id: version?.id ?? null,
    hash_modelo: version?.hash_modelo ?? null,
    estrutura,
  };
}

export function presentTemplateVersion(
  row: {
    id: string;
    version_number: number;
    changelog: string;
    hash_modelo: string;
    created_at: Date;
    published_at: Date | null;
  },
  publicadorNome: string | null,
  atual: boolean,
): TemplateVersion {
  return {
    id: row.id,
    version_number: row.version_number,
    changelog: row.changelog,
    hash_modelo: row.hash_modelo,
    created_at: row.created_at.toISOString(),
    published_at: row.published_at?.toISOString() ?? null,
    publicador_nome: publicadorNome,
    atual,
  };
}
