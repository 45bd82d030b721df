import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { pacientes, signingOtps } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { CONTACT_FIX_MESSAGES, type SigningLink } from "../../../shared/schemas/signing.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { recordWaitingContactChanges } from "../patients/contact-changes.js";
import { findPatientOrThrow } from "../patients/find-patient.js";
import { findResendableDocument, type ResendInput, resendInTransaction } from "./resend-document.js";
import { ofSigner } from "./of-signer.js";

export interface FixContactAndResendOptions {
  db: Db;
  secretBox: SecretBox;
  actor: Actor;
  id: string;
  input: ResendInput & { contact: { email?: string | undefined; telefone?: string | undefined } };
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * "Corrigir contato e reenviar", from the document's page: the patient's e-mail and/or mobile are
 * corrected on the record, every pending code of the patient's link stops working, the old link
 * is revoked and a new one goes out (Reenviar, by the corrected contact) — one transaction with
 * the document locked. The trail has 'patient.updated' (what 'contato desde' reads, decision 046)
 * and, on this document, 'patient.contact_changed' marked as fixed here, which the registry prints.
 */
export async function fixContactAndResend({
  db,
  secretBox,
  actor,
  id,
  input,
  audit,
  now = new Date(),
}: FixContactAndResendOptions): Promise<SigningLink> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const document = await findResendableDocument(tx, actor.tenantId, id, now);
    const before = await findPatientOrThrow(tx, actor.tenantId, document.paciente_id);
    const next = {
      email: input.contact.email ?? before.email,
      telefone: input.contact.telefone ?? before.telefone,
    };
    const changed = (["email", "telefone"] as const).filter((key) => (before[key] ?? null) !== (next[key] ?? null));
    if (changed.length === 0) throw new AppError("BAD_REQUEST", CONTACT_FIX_MESSAGES.unchanged);
    await tx
      .update(pacientes)
      .set({ ...next, updated_at: now })
      .where(and(eq(pacientes.tenant_id, actor.tenantId), eq(pacientes.id, before.id)));
    const context = { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit };
    await recordAuditEvent(tx, context, {
      action: "patient.updated",
      entityType: "paciente",
      entityId: before.id,
      data: { campos: changed, contrato_id: document.id },
    });
    await recordWaitingContactChanges(tx, context, {
      patientId: before.id,
      before,
      after: next,
      changed,
      fixedOn: document.id,
    });
    // A code sent to the wrong address must not sign: the patient's pending codes die now.
    await tx
      .update(signingOtps)
      .set({ expires_at: now })
      .where(
        and(
          eq(signingOtps.tenant_id, actor.tenantId),
          eq(signingOtps.contrato_id, document.id),
          ofSigner(signingOtps.testemunha_id, null),
          isNull(signingOtps.consumed_at),
          gt(signingOtps.expires_at, now),
        ),
      );
    return resendInTransaction({ tx, secretBox, actor, document, input, audit, now });
  });
}
