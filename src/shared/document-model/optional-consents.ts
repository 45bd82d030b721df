/**
 * Separate optional consents (decision 057): items a template version offers besides the main
 * consent ("Uso de imagem para divulgação", "Contato para pesquisas"), each answered Sim or Não on
 * the signing page, independently of the signature. The template holds them as plain text; the
 * document freezes them, resolved, in its DocumentModel (and so in conteudo_sha256); the signer's
 * answers are checked against exactly the frozen ids.
 */
import { z } from "zod";
import { text } from "../schemas/safe-input.js";

/** At most this many items per template version. */
export const MAX_OPTIONAL_CONSENTS = 10;
export const MAX_OPTIONAL_CONSENT_TITLE = 120;
export const MAX_OPTIONAL_CONSENT_TEXT = 1_000;

/** A stable id: letters, digits and hyphens, so it can name a stored answer (and, later, its revocation). */
const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

export const OPTIONAL_CONSENT_MESSAGES = {
  heading: "Consentimentos opcionais",
  hint: "Responda a cada item. Cada resposta vale só para aquele item e não muda a sua assinatura do termo.",
  answerRequired: "Responda Sim ou Não a cada consentimento opcional",
  yes: "Sim",
  no: "Não",
  titleRequired: "Informe o título do consentimento opcional",
  titleTooLong: `Use no máximo ${MAX_OPTIONAL_CONSENT_TITLE} caracteres no título do consentimento opcional`,
  textRequired: "Escreva o texto do consentimento opcional",
  textTooLong: `Use no máximo ${MAX_OPTIONAL_CONSENT_TEXT} caracteres no texto do consentimento opcional`,
  tooMany: `Use no máximo ${MAX_OPTIONAL_CONSENTS} consentimentos opcionais`,
  badId: "Identificador de consentimento opcional inválido",
  duplicateId: "Consentimentos opcionais com identificador repetido",
  previewHint: "O paciente responde Sim ou Não a cada item, separadamente do termo.",
  answersInvalid:
    "As respostas aos consentimentos opcionais não correspondem a este documento. Recarregue a página e responda a cada item.",
} as const;

/** The label of an answer as printed and shown. */
export const answerLabel = (aceito: boolean) => (aceito ? OPTIONAL_CONSENT_MESSAGES.yes : OPTIONAL_CONSENT_MESSAGES.no);

/** An item as stored in a template version (read leniently: stored content is already checked). */
export const OptionalConsentSchema = z.object({
  id: text().min(1),
  title: text(),
  text: text(),
});
export type OptionalConsent = z.output<typeof OptionalConsentSchema>;

/** An item as the template editor sends it. */
export const optionalConsentInputSchema = z.object({
  id: text().trim().regex(ID_PATTERN, OPTIONAL_CONSENT_MESSAGES.badId),
  title: text({ error: OPTIONAL_CONSENT_MESSAGES.titleRequired })
    .trim()
    .min(1, OPTIONAL_CONSENT_MESSAGES.titleRequired)
    .max(MAX_OPTIONAL_CONSENT_TITLE, OPTIONAL_CONSENT_MESSAGES.titleTooLong),
  text: text({ error: OPTIONAL_CONSENT_MESSAGES.textRequired })
    .trim()
    .min(1, OPTIONAL_CONSENT_MESSAGES.textRequired)
    .max(MAX_OPTIONAL_CONSENT_TEXT, OPTIONAL_CONSENT_MESSAGES.textTooLong),
});

export const optionalConsentsInputSchema = z
  .array(optionalConsentInputSchema)
  .max(MAX_OPTIONAL_CONSENTS, OPTIONAL_CONSENT_MESSAGES.tooMany)
  .refine((items) => new Set(items.map((i) => i.id)).size === items.length, OPTIONAL_CONSENT_MESSAGES.duplicateId);

/** An id for a new item from its title ("Uso de imagem" → "uso-de-imagem"), unique among `taken`. */
export function optionalConsentId(title: string, taken: readonly string[]): string {
  const base =
    title
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 48) || "item";
  let id = base;
  for (let n = 2; taken.includes(id); n++) id = `${base}-${n}`;
  return id;
}

/** One answer as the signing page sends it. */
export const optionalAnswerInputSchema = z.object({
  id: text().max(64),
  aceito: z.boolean({ error: OPTIONAL_CONSENT_MESSAGES.answerRequired }),
});
export const optionalAnswersInputSchema = z
  .array(optionalAnswerInputSchema)
  .max(MAX_OPTIONAL_CONSENTS, OPTIONAL_CONSENT_MESSAGES.answersInvalid);
export type OptionalAnswerInput = z.output<typeof optionalAnswerInputSchema>;

/** An answer as recorded (stored row, signature event, evidence, export): the item as offered and the choice. */
export interface OptionalAnswer {
  id: string;
  titulo: string;
  aceito: boolean;
}

/**
 * The answers in the frozen model's order when they name exactly its items, each once; null
 * otherwise (an unknown, missing or repeated id). A model without items takes no answers.
 */
export function matchOptionalAnswers(
  offered: readonly { id: string; title: string }[],
  answers: readonly OptionalAnswerInput[],
): OptionalAnswer[] | null {
  if (answers.length !== offered.length) return null;
  const byId = new Map(answers.map((a) => [a.id, a.aceito]));
  if (byId.size !== answers.length) return null;
  const out: OptionalAnswer[] = [];
  for (const item of offered) {
    const aceito = byId.get(item.id);
    if (aceito === undefined) return null;
    out.push({ id: item.id, titulo: item.title, aceito });
  }
  return out;
}

/** Reads recorded answers from JSON (an event's data, the evidence): only well-formed entries. */
export function readOptionalAnswers(value: unknown): OptionalAnswer[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (a): a is OptionalAnswer =>
      !!a &&
      typeof a === "object" &&
      typeof (a as OptionalAnswer).id === "string" &&
      typeof (a as OptionalAnswer).titulo === "string" &&
      typeof (a as OptionalAnswer).aceito === "boolean",
  );
}
