import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { contratoPartes, contratos } from "../../../db/schema.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { newVerificationCode } from "./verification-code.js";
import { dateInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import { everyPartySigned, requiredSigner } from "../../../shared/signing-rules.js";
import { selectWitnesses } from "../witnesses/witness-rows.js";
import { loadSignerRecord } from "./signer-record.js";

/**
 * The last required signature completes a document (issue 11, decision 021): the responsible
 * professional has signed the professional declaration before it could be sent (sendDocument
 * checks it); the patient (or guardian) and each witness sign by their links, in any order. In the
 * last signer's transaction: status signed and the public verification code (markDocumentSigned),
 * then the `document.signed` event naming the parties and the final-PDF job (recordDocumentSigned).
 *
 * Two halves because of lock order: a status change updates the clinic's document_counters
 * (trigger) and an audit event takes the clinic's chain head (decision 007). Every transaction
 * changes the status BEFORE it writes its audit events, so two of them never wait on each other in
 * opposite orders (issue 16: signing 'audit then status' against a patient opening a link 'status
 * then audit' deadlocked). sign-document.ts calls this half before 'document.party_signed'.
 */
export async function markDocumentSigned(
  tx: Tx,
  tenantId: string,
  input: { document: { id: string }; verificationCode: string; now: Date },
): Promise<void> {
  const { document, now } = input;
  await tx
    .update(contratos)
    .set({ status: "signed", signed_at: now, verification_code: input.verificationCode, updated_at: now })
    .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, document.id)));
}

/** The second half (after markDocumentSigned and the signer's own event): the `document.signed` event and the final-PDF job. */
export async function recordDocumentSigned(
  tx: Tx,
  audit: AuditContext,
  input: { document: { id: string }; verificationCode: string; now: Date },
): Promise<void> {
  const { document, now } = input;
  await recordAuditEvent(tx, audit, {
    action: "document.signed",
    entityType: "contrato",
    entityId: document.id,
    data: { verification_code: input.verificationCode, partes: await signedRoles(tx, audit.tenantId, document.id) },
  });
  await enqueueJob(tx, {
    kind: "document.finalize",
    payload: { contratoId: document.id },
    tenantId: audit.tenantId,
    dedupeKey: `finalize:${document.id}`,
    runAt: now,
  });
}

/**
 * Has every required party signed? The link signer (patient or guardian), the responsible
 * professional when the document has one, and each witness named on it (decision 021).
 */
export async function everyRequiredPartySigned(
  tx: Tx,
  tenantId: string,
  document: { id: string; paciente_id: string; medico_responsavel_id: string | null },
  now: Date,
): Promise<boolean> {
  const patient = await loadSignerRecord(tx, tenantId, document.paciente_id);
  if (!patient) return false;
  const witnesses = (await selectWitnesses(tx, tenantId, document.id)).length;
  const signer = requiredSigner(patient, dateInSaoPaulo(now)).papel;
  return everyPartySigned(
    signer,
    Boolean(document.medico_responsavel_id),
    await signedRoles(tx, tenantId, document.id),
    witnesses,
  );
}

/** The roles that have signed a document. */
export async function signedRoles(tx: Tx, tenantId: string, contratoId: string): Promise<string[]> {
  const rows = await tx
    .select({ papel: contratoPartes.papel })
    .from(contratoPartes)
    .where(and(eq(contratoPartes.tenant_id, tenantId), eq(contratoPartes.contrato_id, contratoId)));
  return rows.map((row) => row.papel);
}

/**
 * A verification code no document uses yet. Looked up as the owner role (every clinic's codes:
 * row-level security would hide the others); the unique index stays the last wall.
 */
export async function unusedVerificationCode(db: Db): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = newVerificationCode();
    const [taken] = await db
      .select({ id: contratos.id })
      .from(contratos)
      .where(eq(contratos.verification_code, code))
      .limit(1);
    if (!taken) return code;
  }
  throw new Error("could not find an unused verification code");
}
