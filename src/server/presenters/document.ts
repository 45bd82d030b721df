import {
  type DocumentStatus,
  type DocumentSummary,
  effectiveStatus,
  shortDocumentId,
} from "../../shared/schemas/document.js";

export interface DocumentSummaryRow {
  id: string;
  titulo: string;
  procedimento: string | null;
  status: DocumentStatus;
  created_at: Date;
  expiracao_at: Date;
  data_procedimento: string | null;
  paciente_id: string;
  paciente_nome: string | null;
  profissional_nome: string | null;
  criador_nome: string | null;
  template_titulo: string | null;
  versao: number | null;
  /** The responsible professional has not signed (decision 050). */
  profissional_pendente: boolean;
  recusado_at: Date | null;
  revogado_at: Date | null;
}

export function presentDocumentSummary(row: DocumentSummaryRow, now: Date): DocumentSummary {
  const status = effectiveStatus(row.status, row.expiracao_at, now);
  return {
    id: row.id,
    short_id: shortDocumentId(row.id),
    titulo: row.titulo,
    procedimento: row.procedimento,
    status,
    created_at: row.created_at.toISOString(),
    expiracao_at: row.expiracao_at.toISOString(),
    data_procedimento: row.data_procedimento,
    paciente_id: row.paciente_id,
    paciente_nome: row.paciente_nome,
    profissional_nome: row.profissional_nome,
    criador_nome: row.criador_nome,
    template_titulo: row.template_titulo,
    versao: row.versao,
    aguardando_profissional: row.profissional_pendente && (status === "sent" || status === "viewed"),
    recusado_at: row.recusado_at?.toISOString() ?? null,
    revogado_at: row.revogado_at?.toISOString() ?? null,
  };
}
