import { formatDateTimeAt } from "../format/index.js";
import { CHOICE_MEANS_LABEL, CHOICE_RECORD_TITLE, type ChoiceKind } from "../schemas/choices.js";
import type { EvidenceLine } from "./optional-consent-lines.js";

/** The `registro` a sealed "Registro de recusa/revogação" carries in evidencias.json (decision 056). */
export interface ChoiceRecordEvidence {
  tipo: ChoiceKind;
  origem: string | null;
  meio: keyof typeof CHOICE_MEANS_LABEL | null;
  nome: string | null;
  registrado_por: string | null;
  otp_verificado: boolean | null;
  ocorrido_em: string | null;
  codigo_verificacao: string | null;
  conteudo_sha256: string | null;
  original_pdf_sha256: string | null;
  original_codigo_verificacao: string | null;
  original_assinado_em: string | null;
  item: { id: string; titulo: string | null } | null;
  /** Made on the page shown inside this site, one the clinic allowed (decision 071). */
  incorporado_em: string | null;
}

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v : null);

/** The record inside evidence, or null when the file is not a choice record (a signed document). */
export function readChoiceRecord(evidence: unknown): ChoiceRecordEvidence | null {
  const r = (evidence as { registro?: Record<string, unknown> } | null)?.registro;
  if (!r || typeof r !== "object") return null;
  const tipo = r.tipo === "recusa" || r.tipo === "revogacao" ? r.tipo : null;
  if (!tipo) return null;
  const meio =
    typeof r.meio === "string" && r.meio in CHOICE_MEANS_LABEL ? (r.meio as ChoiceRecordEvidence["meio"]) : null;
  const item = r.item as { id?: unknown; titulo?: unknown } | undefined;
  return {
    tipo,
    origem: text(r.origem),
    meio,
    nome: text(r.nome),
    registrado_por: text(r.registrado_por),
    otp_verificado: typeof r.otp_verificado === "boolean" ? r.otp_verificado : null,
    ocorrido_em: text(r.ocorrido_em),
    codigo_verificacao: text(r.codigo_verificacao),
    conteudo_sha256: text(r.conteudo_sha256),
    original_pdf_sha256: text(r.original_pdf_sha256),
    original_codigo_verificacao: text(r.original_codigo_verificacao),
    original_assinado_em: text(r.original_assinado_em),
    item: item && typeof item.id === "string" ? { id: item.id, titulo: text(item.titulo) } : null,
    incorporado_em: text(r.incorporado_em),
  };
}

const when = (iso: string | null) => (iso ? `${formatDateTimeAt(iso)} (horário de Brasília)` : "data não registrada");

/**
 * What a choice record says and whether it holds together (decision 056): what it records, who and
 * how; that it is about the content it embeds; for a revocation, the original it names (and, given
 * the original's bytes — `npm run verify -- registro.pdf --original assinado.pdf` — that it is that
 * very file); for one optional consent (decision 057), that the item is one of the frozen content's.
 * Shared by the CLI and the browser verifier (decision 077), which has no original to compare.
 */
export function choiceRecordLines(
  record: ChoiceRecordEvidence,
  context: {
    contentSha256: string | null;
    documentValue: unknown;
    /** The SHA-256 of the original PDF given (CLI --original). */
    originalSha256?: string | undefined;
  },
): EvidenceLine[] {
  const lines: EvidenceLine[] = [];
  const title = CHOICE_RECORD_TITLE[record.tipo];
  const by =
    record.origem === "equipe"
      ? `registrada por ${record.registrado_por ?? "alguém da equipe"}, comunicada ${record.meio ? CHOICE_MEANS_LABEL[record.meio] : "à equipe"}`
      : `feita por ${record.nome ?? "o signatário"} ${CHOICE_MEANS_LABEL.link}${record.otp_verificado ? ", com código de confirmação" : ""}`;
  const what = record.tipo === "recusa" ? "Recusa" : "Revogação";
  lines.push({
    ok: null,
    text: `Este arquivo é um ${title} (código de verificação ${record.codigo_verificacao ?? "ausente"}): ${what.toLowerCase()} em ${when(record.ocorrido_em)}, ${by}.`,
  });
  if (record.incorporado_em)
    lines.push({
      ok: null,
      text: `Feita na página de assinatura incorporada em ${record.incorporado_em} (site autorizado pela clínica).`,
    });
  const sameContent = record.conteudo_sha256 !== null && record.conteudo_sha256 === context.contentSha256;
  lines.push({
    ok: sameContent,
    text: sameContent
      ? `O registro é do conteúdo embutido (SHA-256 ${record.conteudo_sha256}).`
      : `O registro declara outro conteúdo (${record.conteudo_sha256 ?? "ausente"}) que o embutido (${context.contentSha256 ?? "ausente"}).`,
  });
  if (record.tipo === "recusa") return lines;

  if (record.item) {
    const offered = (context.documentValue as { optional_consents?: { id?: unknown; title?: unknown }[] } | null)
      ?.optional_consents;
    const frozen = Array.isArray(offered) ? offered.find((o) => o?.id === record.item!.id) : undefined;
    lines.push({
      ok: frozen !== undefined,
      text: frozen
        ? `Revoga só a autorização opcional “${record.item.titulo ?? String(frozen.title)}”; o consentimento principal continua válido.`
        : `A autorização opcional revogada (${record.item.id}) não é um item do conteúdo congelado.`,
    });
  }
  const named = record.original_pdf_sha256 !== null && record.original_codigo_verificacao !== null;
  lines.push({
    ok: named,
    text: named
      ? `Documento original: assinado em ${when(record.original_assinado_em)}, código de verificação ${record.original_codigo_verificacao}, PDF selado com SHA-256 ${record.original_pdf_sha256} (o original não é alterado pela revogação).`
      : "O registro de revogação não identifica o PDF original (SHA-256 e código de verificação).",
  });
  if (context.originalSha256 !== undefined) {
    const computed = context.originalSha256;
    const same = computed === record.original_pdf_sha256;
    lines.push({
      ok: same,
      text: same
        ? `O PDF original informado (--original) é exatamente o que este registro revoga (SHA-256 ${computed}).`
        : `O PDF original informado (--original, SHA-256 ${computed}) NÃO é o que este registro revoga (${record.original_pdf_sha256 ?? "ausente"}).`,
    });
  } else {
    lines.push({
      ok: null,
      text: "Para conferir o original, informe o PDF assinado com --original (o SHA-256 dele deve ser o acima).",
    });
  }
  return lines;
}
