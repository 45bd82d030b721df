import { buildDocumentModel, type DocumentModel } from "@shared/document-model/build-document-model";
import {
  fillDocumentVariables,
  type DocumentVariableSources,
  type SelectedContent,
} from "@shared/document-model/document-variables";
import { parseTemplateContent } from "@shared/document-model/structure";
import type { ContentKind } from "@shared/schemas/content";
import { DOCUMENT_VALIDITY_DAYS, type DocumentFormOptions } from "@shared/schemas/document";

const DAY_MS = 24 * 60 * 60 * 1000;

export type FormPhysician = DocumentFormOptions["physicians"][number];
type Patient = DocumentVariableSources["patient"];

export interface ContentItemLike {
  id: string;
  titulo: string;
  descricao: string;
}

const KIND_TO_TIPO: Record<ContentKind, SelectedContent["tipo"]> = {
  riscos: "riscos",
  beneficios: "beneficios",
  cuidados: "cuidados_pos",
};

/** The chosen library items in the shape the document stores (ids not found are left out). */
export function selectedContent(
  chosen: Record<ContentKind, readonly string[]>,
  lists: Partial<Record<ContentKind, readonly ContentItemLike[]>>,
): SelectedContent[] {
  const out: SelectedContent[] = [];
  for (const kind of ["riscos", "beneficios", "cuidados"] as const) {
    const byId = new Map((lists[kind] ?? []).map((item) => [item.id, item]));
    for (const id of chosen[kind]) {
      const item = byId.get(id);
      if (item) out.push({ tipo: KIND_TO_TIPO[kind], titulo: item.titulo, descricao: item.descricao });
    }
  }
  return out;
}

/**
 * The responsible physician as the preview knows them: the chosen one (or the user, when they
 * do not choose). CPF and RQE are only known for the signed-in user; the server fills them for
 * others (it is the judge of the final document).
 */
export function previewPhysician(
  options: Pick<DocumentFormOptions, "physicians" | "must_choose_physician">,
  chosenId: string | undefined,
  me: {
    id: string;
    nome: string;
    cpf: string | null;
    rqe: string | null;
    conselho_tipo: string | null;
    conselho_numero: string | null;
    conselho_uf: string | null;
  },
): DocumentVariableSources["physician"] {
  const id = options.must_choose_physician ? chosenId : me.id;
  if (!id) return null;
  const listed = options.physicians.find((p) => p.id === id);
  const isMe = id === me.id;
  if (!listed && !isMe) return null;
  return {
    nome: listed?.nome ?? me.nome,
    cpf: listed?.cpf ?? (isMe ? me.cpf : null),
    conselho_tipo: listed?.conselho_tipo ?? (isMe ? me.conselho_tipo : null),
    conselho_numero: listed?.conselho_numero ?? (isMe ? me.conselho_numero : null),
    conselho_uf: listed?.conselho_uf ?? (isMe ? me.conselho_uf : null),
    rqe: listed?.rqe ?? (isMe ? me.rqe : null),
    especialidade: listed?.especialidade ?? null,
  };
}

export interface PreviewInput {
  template: { titulo: string; estrutura: unknown };
  titulo: string;
  procedimento: string | null;
  data_procedimento: string | null;
  patient: Patient | null;
  physician: DocumentVariableSources["physician"];
  clinic: DocumentVariableSources["clinic"] & { validade_dias?: number | undefined };
  selected: readonly SelectedContent[];
  custom: DocumentVariableSources["custom"];
  now: Date;
}

/**
 * The live preview: the same values the server will fill (fillDocumentVariables) drawn through
 * the same model builder, from what the form knows. Without a patient, the patient's values are
 * empty and show as missing.
 */
export function buildPreviewModel(input: PreviewInput): DocumentModel {
  const patient: Patient = input.patient ?? {
    nome: "",
    cpf: null,
    data_nascimento: null,
    email: null,
    telefone: null,
    responsavel_nome: null,
    responsavel_cpf: null,
  };
  const values = fillDocumentVariables({
    titulo: input.titulo,
    procedimento: input.procedimento,
    data_procedimento: input.data_procedimento || null,
    patient,
    physician: input.physician,
    clinic: input.clinic,
    selected: input.selected,
    custom: input.custom,
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + (input.clinic.validade_dias ?? DOCUMENT_VALIDITY_DAYS) * DAY_MS),
  });
  const structure = parseTemplateContent(input.template.estrutura, input.template.titulo);
  return buildDocumentModel(structure, values);
}

/** The title a procedure suggests when the title is still empty. */
export function suggestedTitle(procedimento: string): string {
  return `Termo de Consentimento - ${procedimento}`;
}
