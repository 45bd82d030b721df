/**
 * The variables a document is filled with at creation (spec part 2 §3 "Document variables filled
 * at creation"): patient, responsible professional with council data, clinic, dates, the chosen
 * content and the custom texts. Pure; every value is display text in pt-BR.
 */
import { formatCep } from "../br/cep.js";
import { formatCpf } from "../br/cpf.js";
import { formatPhone } from "../br/phone.js";
import { ageOn, dateInSaoPaulo } from "../dates/sao-paulo.js";
import { formatTime } from "../format/index.js";

export type ContentKind = "riscos" | "beneficios" | "cuidados_pos";

/** One library item chosen for the document (spec part 1 §3 conteudo_selecionado). */
export interface SelectedContent {
  tipo: ContentKind;
  titulo: string;
  descricao: string;
}

export interface DocumentVariableSources {
  titulo: string;
  procedimento: string | null;
  /** ISO date (yyyy-mm-dd) or null. */
  data_procedimento: string | null;
  patient: {
    nome: string;
    cpf: string | null;
    data_nascimento: string | null;
    email: string | null;
    telefone: string | null;
    responsavel_nome: string | null;
    responsavel_cpf: string | null;
  };
  physician: {
    nome: string;
    cpf: string | null;
    conselho_tipo: string | null;
    conselho_numero: string | null;
    conselho_uf: string | null;
    rqe: string | null;
    especialidade: string | null;
  } | null;
  clinic: {
    nome: string;
    logradouro: string | null;
    numero: string | null;
    complemento: string | null;
    bairro: string | null;
    cidade: string | null;
    estado: string | null;
    cep: string | null;
    telefone: string | null;
  };
  selected: readonly SelectedContent[];
  custom: {
    valor_procedimento?: string | null | undefined;
    riscos_personalizados?: string | null | undefined;
    beneficios_personalizados?: string | null | undefined;
    cuidados_personalizados?: string | null | undefined;
  };
  createdAt: Date;
  expiresAt: Date;
}

/** dd/mm/aaaa of an ISO date (yyyy-mm-dd), without time-zone shifts. */
export function formatIsoDate(iso: string | null | undefined): string {
  if (!iso) return "";
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : "";
}

function timeInSaoPaulo(instant: Date): string {
  return formatTime(instant);
}

/** "CRM-SP 123456" (or the parts that exist). */
export function councilRegistration(tipo: string | null, uf: string | null, numero: string | null): string {
  const prefix = [tipo, uf].filter(Boolean).join("-");
  return [prefix, numero].filter(Boolean).join(" ");
}

/** "Rua X, 100, sala 2 - Bairro, Cidade - UF, 00000-000", skipping what is missing. */
export function formatAddress(a: DocumentVariableSources["clinic"]): string {
  const street = [a.logradouro, a.numero, a.complemento].filter(Boolean).join(", ");
  const city = [a.cidade, a.estado].filter(Boolean).join(" - ");
  const tail = [a.bairro, city].filter(Boolean).join(", ");
  const cep = a.cep ? formatCep(a.cep) : "";
  return [[street, tail].filter(Boolean).join(" - "), cep].filter(Boolean).join(", ");
}

/** One line per item ("Título: descrição"), then the custom text's own lines. */
export function contentLines(
  selected: readonly SelectedContent[],
  kind: ContentKind,
  custom: string | null | undefined,
): string {
  const lines = selected
    .filter((item) => item.tipo === kind)
    .map((item) => {
      const titulo = item.titulo.trim();
      const descricao = item.descricao.trim().replace(/\s*\n\s*/g, " ");
      return descricao && descricao !== titulo ? `${titulo}: ${descricao}` : titulo;
    });
  const own = (custom ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return [...lines, ...own].join("\n");
}

const orEmpty = (value: string | null | undefined) => value?.trim() ?? "";

/**
 * "Responsável legal: José Souza - CPF 123.456.789-09" when the record names a guardian; "" (the
 * line disappears, never an unresolved placeholder) for a patient without one.
 */
export function guardianLine(patient: { responsavel_nome: string | null; responsavel_cpf: string | null }): string {
  const nome = orEmpty(patient.responsavel_nome);
  if (!nome) return "";
  return `Responsável legal: ${nome}${patient.responsavel_cpf ? ` - CPF ${formatCpf(patient.responsavel_cpf)}` : ""}`;
}

/**
 * Canonical variable → value. Empty strings mark what is unknown (the model reports those
 * placeholders as unresolved). Aliases (medico_*, crm, paciente…) resolve through the alias table.
 */
export function fillDocumentVariables(src: DocumentVariableSources): Record<string, string> {
  const today = dateInSaoPaulo(src.createdAt);
  const age = ageOn(src.patient.data_nascimento, today);
  const physician = src.physician;
  return {
    titulo: src.titulo.trim(),
    procedimento: orEmpty(src.procedimento),
    data_procedimento: formatIsoDate(src.data_procedimento),
    valor_procedimento: orEmpty(src.custom.valor_procedimento),
    riscos_personalizados: contentLines(src.selected, "riscos", src.custom.riscos_personalizados),
    beneficios_personalizados: contentLines(src.selected, "beneficios", src.custom.beneficios_personalizados),
    cuidados_personalizados: contentLines(src.selected, "cuidados_pos", src.custom.cuidados_personalizados),
    paciente_nome: src.patient.nome.trim(),
    paciente_cpf: src.patient.cpf ? formatCpf(src.patient.cpf) : "",
    paciente_idade: age === null ? "" : `${age} ${age === 1 ? "ano" : "anos"}`,
    paciente_data_nascimento: formatIsoDate(src.patient.data_nascimento),
    paciente_email: orEmpty(src.patient.email),
    paciente_telefone: src.patient.telefone ? formatPhone(src.patient.telefone) : "",
    responsavel_nome: orEmpty(src.patient.responsavel_nome),
    responsavel_cpf: src.patient.responsavel_cpf ? formatCpf(src.patient.responsavel_cpf) : "",
    responsavel_linha: guardianLine(src.patient),
    profissional_nome: orEmpty(physician?.nome),
    profissional_cpf: physician?.cpf ? formatCpf(physician.cpf) : "",
    profissional_crm: physician
      ? councilRegistration(physician.conselho_tipo, physician.conselho_uf, physician.conselho_numero)
      : "",
    profissional_especialidade: orEmpty(physician?.especialidade),
    profissional_rqe: orEmpty(physician?.rqe),
    profissional_conselho_tipo: orEmpty(physician?.conselho_tipo),
    profissional_conselho_numero: orEmpty(physician?.conselho_numero),
    profissional_conselho_uf: orEmpty(physician?.conselho_uf),
    unidade_nome: src.clinic.nome.trim(),
    unidade_endereco: formatAddress(src.clinic),
    unidade_telefone: src.clinic.telefone ? formatPhone(src.clinic.telefone) : "",
    data_atual: formatIsoDate(today),
    hora_atual: timeInSaoPaulo(src.createdAt),
    data_criacao: formatIsoDate(today),
    data_vencimento: formatIsoDate(dateInSaoPaulo(src.expiresAt)),
  };
}

/**
 * The spec's variaveis_preenchidas object (part 1 §3): the canonical values plus the medico_*
 * names the spec stores, so both spellings are kept with the document.
 */
export function storedDocumentVariables(values: Record<string, string>): Record<string, string> {
  return {
    ...values,
    medico_nome: values.profissional_nome ?? "",
    medico_cpf: values.profissional_cpf ?? "",
    medico_crm: values.profissional_crm ?? "",
    medico_especialidade: values.profissional_especialidade ?? "",
    medico_rqe: values.profissional_rqe ?? "",
    medico_conselho_tipo: values.profissional_conselho_tipo ?? "",
    medico_conselho_numero: values.profissional_conselho_numero ?? "",
    medico_conselho_uf: values.profissional_conselho_uf ?? "",
  };
}
