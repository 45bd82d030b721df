import { and, asc, eq } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { contratoPartes, contratos } from "../../../db/schema.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import {
  type AuditContext,
  type AuditEventInput,
  recordAuditEvent,
  recordAuditEvents,
} from "../audit/record-audit-event.js";
import { newVerificationCode } from "./verification-code.js";
import { dateInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import { everyPartySigned, missingRoles, requiredSigner } from "../../../shared/signing-rules.js";
import { selectWitnesses } from "../witnesses/witness-rows.js";
import { loadSignerRecord } from "./signer-record.js";

/**
 * The last required signature completes a document (decisions 021 and 050): the patient
 * (or guardian) and each witness sign by their links, the responsible professional in the app —
 * before sending, after the patient or in any order, as the clinic chose. In the last signer's
 * transaction (signDocument or signAsProfessional): status signed and the public verification code (markDocumentSigned),
 * then the `document.signed` event naming the parties in the order they signed and the final-PDF job (recordDocumentSigned).
 *
 * Two halves because of lock order: a status change updates the clinic's document_counters
 * (trigger) and an audit event takes the clinic's chain head (decision 007). Every transaction
 * changes the status BEFORE it writes its audit events, so two of them never wait on each other in
 * opposite orders (signing 'audit then status' against a patient opening a link 'status
 * then audit' deadlocked). Both signing services call this half before 'document.party_signed';
 * both lock the document row first, so of two last signatures at once one waits and completes.
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

/**
 * The second half (after markDocumentSigned and the signer's own event): the `document.signed` event and the final-PDF job.
 * `known`: the parties in the order they signed when the caller already holds them under the
 * document's lock, and the signer's own event to write in the same statement, first (decision 073).
 */
export async function recordDocumentSigned(
  tx: Tx,
  audit: AuditContext,
  input: { document: { id: string }; verificationCode: string; now: Date },
  known?: {
    parties: readonly { papel: string; ordem: number; assinou_em: Date }[];
    before: AuditEventInput;
  },
): Promise<void> {
  const { document, now } = input;
  const signed: AuditEventInput = {
    action: "document.signed",
    entityType: "contrato",
    entityId: document.id,
    data: {
      verification_code: input.verificationCode,
      partes: known ? known.parties.map((party) => party.papel) : await signedRoles(tx, audit.tenantId, document.id),
      // The real order (decision 050): who signed when, first to last.
      ordem: known
        ? known.parties.map(({ papel, ordem, assinou_em }) => ({ papel, ordem, assinou_em: assinou_em.toISOString() }))
        : await signingOrder(tx, audit.tenantId, document.id),
    },
  };
  if (known) await recordAuditEvents(tx, audit, [known.before, signed]);
  else await recordAuditEvent(tx, audit, signed);
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

/** The roles still to sign (empty when the document can be completed); see everyRequiredPartySigned. */
export async function missingParties(
  tx: Tx,
  tenantId: string,
  document: { id: string; paciente_id: string; medico_responsavel_id: string | null },
  now: Date,
): Promise<string[] | null> {
  const patient = await loadSignerRecord(tx, tenantId, document.paciente_id);
  if (!patient) return null;
  const witnesses = (await selectWitnesses(tx, tenantId, document.id)).length;
  const signer = requiredSigner(patient, dateInSaoPaulo(now)).papel;
  const signed = (await signedRoles(tx, tenantId, document.id)).map((role) =>
    role === "paciente" || role === "responsavel" ? signer : role,
  );
  return missingRoles(signer, Boolean(document.medico_responsavel_id), signed, witnesses);
}

/**
 * missingParties and everyRequiredPartySigned on rows already read in this transaction
 * (loadLinkContext, after the document's lock; decision 073): the patient's record, the named
 * witnesses and the parties that have signed, plus the one this transaction just added.
 */
export function missingPartiesOf(
  context: {
    patient: Parameters<typeof requiredSigner>[0] | null;
    witnesses: readonly unknown[];
    parties: readonly { papel: string }[];
  },
  document: { medico_responsavel_id: string | null },
  now: Date,
): string[] | null {
  if (!context.patient) return null;
  const signer = requiredSigner(context.patient, dateInSaoPaulo(now)).papel;
  const signed = context.parties.map(({ papel }) => (papel === "paciente" || papel === "responsavel" ? signer : papel));
  return missingRoles(signer, Boolean(document.medico_responsavel_id), signed, context.witnesses.length);
}

/** Who signed a document and when, in the order they signed (the `document.signed` event). */
export async function signingOrder(
  tx: Tx,
  tenantId: string,
  contratoId: string,
): Promise<{ papel: string; ordem: number; assinou_em: string }[]> {
  const rows = await tx
    .select({ papel: contratoPartes.papel, ordem: contratoPartes.ordem, assinou_em: contratoPartes.assinou_em })
    .from(contratoPartes)
    .where(and(eq(contratoPartes.tenant_id, tenantId), eq(contratoPartes.contrato_id, contratoId)))
    .orderBy(asc(contratoPartes.assinou_em), asc(contratoPartes.id));
  return rows.map((row) => ({ papel: row.papel, ordem: row.ordem, assinou_em: row.assinou_em.toISOString() }));
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
