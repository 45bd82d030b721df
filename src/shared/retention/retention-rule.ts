/**
 * How long a clinic must keep a signed document (Lei 13.787/2018, art. 6: the patient's record is
 * kept for at least 20 years from its last entry). A signed document and its evidence (parties,
 * signatures, audit events, the sealed PDF, witnesses) cannot be deleted before then, by anyone;
 * migration 0029 makes PostgreSQL refuse it too (decision 026). Drafts, cancelled and expired
 * documents were never signed: they may be deleted. Sent or viewed ones are cancelled first (the
 * patient holds a live link).
 */
import { formatDate } from "../format/index.js";

export const RETENTION_YEARS = 20;
export const RETENTION_LAW = "Lei 13.787/2018";

/** Statuses a document may be deleted in (it was never signed and no link to it is live). */
export const DELETABLE_STATUSES: readonly string[] = ["draft", "cancelled", "expired"];
/** Statuses whose link is live: cancel first. */
const PENDING_STATUSES: readonly string[] = ["sent", "viewed"];

export interface RetentionSubject {
  status: string;
  /** When the last required signature completed the document (null if never signed). */
  signed_at: Date | string | null;
}

export type DocumentDeletion =
  | { allowed: true }
  | { allowed: false; reason: "retained"; until: Date | null }
  | { allowed: false; reason: "pending" };

export type PatientAnonymization =
  | { allowed: true; documentsToDelete: number }
  | { allowed: false; reason: "retained"; until: Date | null }
  | { allowed: false; reason: "pending"; count: number };

const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/** The day a document signed at `signedAt` may be deleted: 20 calendar years later. */
export function retainedUntil(signedAt: Date | string): Date {
  const until = new Date(asDate(signedAt).getTime());
  until.setUTCFullYear(until.getUTCFullYear() + RETENTION_YEARS);
  return until;
}

/**
 * True while the document must be kept: signed, and signed less than 20 years ago. A signed
 * document without a signing time is kept (nothing says when its period ends).
 */
export function isRetained(document: RetentionSubject, now: Date = new Date()): boolean {
  if (document.status !== "signed") return false;
  if (document.signed_at === null) return true;
  const signedAt = asDate(document.signed_at);
  if (Number.isNaN(signedAt.getTime())) return true;
  return retainedUntil(signedAt).getTime() > now.getTime();
}

/** Whether this document may be deleted now, and if not, why and until when. */
export function documentDeletion(document: RetentionSubject, now: Date = new Date()): DocumentDeletion {
  if (document.status === "signed") {
    if (isRetained(document, now)) {
      return {
        allowed: false,
        reason: "retained",
        until: document.signed_at === null ? null : retainedUntil(document.signed_at),
      };
    }
    return { allowed: true };
  }
  if (PENDING_STATUSES.includes(document.status)) return { allowed: false, reason: "pending" };
  return DELETABLE_STATUSES.includes(document.status) ? { allowed: true } : { allowed: false, reason: "pending" };
}

/**
 * Whether a patient's personal data may be removed (LGPD art. 18 IV/VI, within art. 16 I: a legal
 * duty to keep records overrides the request). Refused while any of their documents is retained
 * (`until` is the latest end of retention) or waiting for a signature; otherwise their unsigned
 * documents (drafts, cancelled, expired, or signed ones past retention) are deleted with it.
 */
export function patientAnonymization(
  documents: readonly RetentionSubject[],
  now: Date = new Date(),
): PatientAnonymization {
  let latest: Date | null | undefined;
  for (const document of documents) {
    if (!isRetained(document, now)) continue;
    const until = document.signed_at === null ? null : retainedUntil(document.signed_at);
    if (latest === undefined) latest = until;
    else if (latest !== null && (until === null || until.getTime() > latest.getTime())) latest = until;
  }
  if (latest !== undefined) return { allowed: false, reason: "retained", until: latest };
  const pending = documents.filter((document) => PENDING_STATUSES.includes(document.status)).length;
  if (pending > 0) return { allowed: false, reason: "pending", count: pending };
  return { allowed: true, documentsToDelete: documents.length };
}

/** "26/11/2046" (São Paulo calendar). */
export function formatRetentionDate(date: Date): string {
  return formatDate(date);
}

/** What the screens and the API say about the rule (pt-BR). */
export const RETENTION_MESSAGES = {
  /** The rule and its basis, shown wherever deleting is offered. */
  rule: "Documentos assinados são guardados por 20 anos (Lei 13.787/2018), contados da assinatura, e não podem ser excluídos antes disso — nem pelo proprietário.",
  deletable: "Podem ser excluídos rascunhos, documentos cancelados e expirados (nunca assinados).",
  documentRetained: (until: Date | null) =>
    until
      ? `Este documento foi assinado e deve ser guardado até ${formatRetentionDate(until)} (20 anos, Lei 13.787/2018): não pode ser excluído.`
      : "Este documento foi assinado e deve ser guardado por 20 anos (Lei 13.787/2018): não pode ser excluído.",
  documentPending: "Documentos enviados ou visualizados não podem ser excluídos: cancele-os primeiro.",
  anonymizeRetained: (until: Date | null) =>
    `Este paciente tem documentos assinados, que a clínica tem o dever legal de guardar por 20 anos (Lei 13.787/2018)${
      until ? `, até ${formatRetentionDate(until)}` : ""
    }. Os dados pessoais dele não podem ser anonimizados enquanto isso; a exportação dos dados continua disponível.`,
  anonymizePending: (count: number) =>
    `Este paciente tem ${count === 1 ? "1 documento aguardando" : `${count} documentos aguardando`} assinatura. Cancele-os antes de anonimizar.`,
} as const;
