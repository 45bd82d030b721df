import { and, asc, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { consentimentosOpcionais } from "../../../db/schema.js";
import type { DocumentModel } from "../../../shared/document-model/build-document-model.js";
import {
  matchOptionalAnswers,
  type OptionalAnswer,
  type OptionalAnswerInput,
} from "../../../shared/document-model/optional-consents.js";
import { AppError } from "../../errors.js";

/** The optional consents a frozen model offered (decision 057), in order. */
export function offeredOptionalConsents(documento: unknown): { id: string; title: string }[] {
  const items = (documento as Partial<DocumentModel> | null)?.optional_consents;
  return Array.isArray(items) ? items.map((item) => ({ id: String(item.id), title: String(item.title) })) : [];
}

/**
 * The signer's answers checked against the frozen model (decision 057): the patient or guardian
 * answers exactly its items, each once; a witness answers none. Anything else is a 400 thrown
 * before the signature is written, so nothing of it is stored.
 */
export function checkOptionalAnswers(
  documento: unknown,
  papel: "paciente" | "responsavel" | "testemunha",
  answers: readonly OptionalAnswerInput[] | undefined,
): OptionalAnswer[] {
  const offered = papel === "testemunha" ? [] : offeredOptionalConsents(documento);
  const matched = matchOptionalAnswers(offered, answers ?? []);
  if (!matched) throw new AppError("SIGNING_OPTIONAL_ANSWERS_INVALID");
  return matched;
}

/** Writes the answers with the signature, in its transaction (one row per item). */
export async function storeOptionalAnswers(
  tx: Tx,
  row: { tenantId: string; contratoId: string; parteId: string; now: Date },
  answers: readonly OptionalAnswer[],
): Promise<void> {
  if (answers.length === 0) return;
  await tx.insert(consentimentosOpcionais).values(
    answers.map((answer, ordem) => ({
      tenant_id: row.tenantId,
      contrato_id: row.contratoId,
      parte_id: row.parteId,
      item_id: answer.id,
      titulo: answer.titulo,
      aceito: answer.aceito,
      ordem,
      respondido_em: row.now,
      created_at: row.now,
    })),
  );
}

/** A document's recorded answers, in the order offered. */
export async function loadOptionalAnswers(
  tx: Tx,
  tenantId: string,
  contratoId: string,
): Promise<(OptionalAnswer & { parte_id: string; respondido_em: Date })[]> {
  const rows = await tx
    .select()
    .from(consentimentosOpcionais)
    .where(and(eq(consentimentosOpcionais.tenant_id, tenantId), eq(consentimentosOpcionais.contrato_id, contratoId)))
    .orderBy(asc(consentimentosOpcionais.ordem));
  return rows.map((r) => ({
    id: r.item_id,
    titulo: r.titulo,
    aceito: r.aceito,
    parte_id: r.parte_id,
    respondido_em: r.respondido_em,
  }));
}
