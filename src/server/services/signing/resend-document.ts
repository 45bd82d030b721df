import { and, count, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { contratos, documentReminders, signingTokens } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { DOCUMENT_VALIDITY_DAYS, effectiveStatus } from "../../../shared/schemas/document.js";
import type { SigningLink } from "../../../shared/schemas/signing.js";
import { aRogoOf } from "../../../shared/schemas/a-rogo.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import type { AuditContext } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { assertPatientCanSign } from "./send-checks.js";
import { issueAndShareLink } from "./signing-link.js";
import type { EmailChannel } from "./signing-settings.js";
import { revokeSigningTokens } from "./signing-tokens.js";
import { whatsappSendLink } from "../whatsapp/whatsapp-send-link.js";
import { smsSendLink } from "../messaging/sms-send-link.js";
import { reminderChannels, withSms } from "./send-document.js";
import { scheduleReminders } from "../reminders/schedule-reminders.js";
import { selectWitnesses } from "../witnesses/witness-rows.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const RESENDABLE = new Set(["sent", "viewed", "expired"]);

export interface ResendDocumentOptions {
  db: Db;
  secretBox: SecretBox;
  actor: Actor;
  id: string;
  input: ResendInput;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * Reenviar: a sent, viewed or expired document gets a new link; every previous patient link stops
 * working at once. A sent or viewed document keeps its status and deadline. An expired one (the
 * sweep wrote it, or only the clock says so) gets a new deadline of DOCUMENT_VALIDITY_DAYS and
 * waits again — sent, or viewed if the patient had opened it — and the live links of its
 * witnesses who have not signed are extended to the same deadline (they keep the link they got).
 * The patient must still be able to sign (src/shared/send-readiness), as when sending.
 */
export async function resendDocument({
  db,
  secretBox,
  actor,
  id,
  input,
  audit,
  now = new Date(),
}: ResendDocumentOptions): Promise<SigningLink> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const document = await findResendableDocument(tx, actor.tenantId, id, now);
    return resendInTransaction({ tx, secretBox, actor, document, input, audit, now });
  });
}

export interface ResendInput {
  email: boolean;
  /** Also by WhatsApp (Cloud API) when configured (decision 059). */
  whatsapp?: boolean;
  /** Also by SMS to the patient's mobile (decision 066); off unless asked. */
  sms?: boolean;
  origin: string;
  channel: EmailChannel;
}

type LockedDocument = Awaited<ReturnType<typeof findDocumentOrThrow>>;

/** The document, locked, when Reenviar applies to it (sent, viewed or expired); else DOCUMENT_NOT_RESENDABLE. */
export async function findResendableDocument(tx: Tx, tenantId: string, id: string, now: Date): Promise<LockedDocument> {
  const document = await findDocumentOrThrow(tx, tenantId, id, true);
  if (!RESENDABLE.has(effectiveStatus(document.status, document.expiracao_at, now))) {
    throw new AppError("DOCUMENT_NOT_RESENDABLE");
  }
  return document;
}

export interface ResendInTransactionOptions {
  tx: Tx;
  secretBox: SecretBox;
  actor: Actor;
  document: LockedDocument;
  input: ResendInput;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now: Date;
}

/** Reenviar inside the caller's transaction, on a document locked by findResendableDocument. */
export async function resendInTransaction({
  tx,
  secretBox,
  actor,
  document,
  input,
  audit,
  now,
}: ResendInTransactionOptions): Promise<SigningLink> {
  const id = document.id;
  const status = effectiveStatus(document.status, document.expiracao_at, now);
  await assertPatientCanSign(tx, actor.tenantId, document.paciente_id, now);
  await revokeSigningTokens(tx, actor.tenantId, id, now);
  const expired = status === "expired";
  const expiresAt = expired ? new Date(now.getTime() + DOCUMENT_VALIDITY_DAYS * DAY_MS) : document.expiracao_at;
  const waiting =
    document.status === "viewed" || (document.status === "expired" && document.viewed_at !== null) ? "viewed" : "sent";
  await tx
    .update(contratos)
    // A new link also lifts a comprehension pause: the clinic has talked to the patient (decision 061).
    .set(
      expired
        ? { status: waiting, expiracao_at: expiresAt, updated_at: now, compreensao_pausada_at: null }
        : { updated_at: now, compreensao_pausada_at: null },
    )
    .where(and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.id, id)));
  if (expired) {
    // Witnesses' links expired with the document: the same links work again until the new deadline.
    await tx
      .update(signingTokens)
      .set({ expires_at: expiresAt })
      .where(
        and(
          eq(signingTokens.tenant_id, actor.tenantId),
          eq(signingTokens.contrato_id, id),
          isNotNull(signingTokens.testemunha_id),
          isNull(signingTokens.revoked_at),
        ),
      );
  }
  const context = { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit };
  // Signed "a rogo" (decision 070): the new link is for the front desk; nothing goes to the patient.
  const aRogo = aRogoOf(document.a_rogo) !== null;
  const toPatient = {
    email: input.email && !aRogo,
    whatsapp: input.whatsapp === true && !aRogo,
    sms: input.sms === true && !aRogo,
  };
  const link = await issueAndShareLink(tx, secretBox, context, {
    document,
    action: "document.resent",
    expiresAt,
    email: toPatient.email,
    origin: input.origin,
    channel: input.channel,
    now,
  });
  const whatsapp = await whatsappSendLink(tx, secretBox, {
    tenantId: actor.tenantId,
    document,
    link: link.link,
    expiresAt,
    on: toPatient.whatsapp,
  });
  const sms = await smsSendLink(tx, secretBox, context, {
    document,
    link: link.link,
    on: toPatient.sms,
    smsConfigured: input.channel.sms,
    now,
  });
  // Reenviar starts the reminder schedule again from now (decision 066): the chain's start moves,
  // so the old chain's queued reminders stop, and the new one counts on from those already sent.
  await tx
    .update(contratos)
    .set({ lembretes_desde: now })
    .where(and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.id, id)));
  const [written] = await tx
    .select({ n: count() })
    .from(documentReminders)
    .where(and(eq(documentReminders.tenant_id, actor.tenantId), eq(documentReminders.contrato_id, id)));
  await scheduleReminders(tx, {
    tenantId: actor.tenantId,
    contratoId: id,
    sentAt: now,
    expiresAt,
    canais: reminderChannels(toPatient.email, whatsapp, sms),
    testemunhas: (await selectWitnesses(tx, actor.tenantId, id)).length > 0,
    restart: { base: Number(written?.n ?? 0) },
  });
  return withSms(whatsapp ? { ...link, whatsapp_enviado: true } : link, sms);
}
