import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { DOCUMENT_VALIDITY_DAYS } from "../../../shared/schemas/document.js";
import type { SigningLink } from "../../../shared/schemas/signing.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import type { AuditContext } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { signedRoles } from "./complete-document.js";
import { assertPatientCanSign } from "./send-checks.js";
import { emailAwaitingProfessional } from "./awaiting-professional-email.js";
import { issueAndShareLink, loadLinkRecipients } from "./signing-link.js";
import { issueWitnessLinks } from "../witnesses/witness-links.js";
import { selectWitnesses } from "../witnesses/witness-rows.js";
import { A_ROGO_WITNESSES, aRogoOf } from "../../../shared/schemas/a-rogo.js";
import { type EmailChannel, professionalOrder } from "./signing-settings.js";
import { scheduleReminders } from "../reminders/schedule-reminders.js";
import type { ReminderChannel } from "../../jobs/enqueue-job.js";
import { whatsappSendLink } from "../whatsapp/whatsapp-send-link.js";
import { smsSendLink, type SmsLinkOutcome } from "../messaging/sms-send-link.js";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface SendDocumentOptions {
  db: Db;
  secretBox: SecretBox;
  actor: Actor;
  id: string;
  input: {
    email: boolean;
    whatsapp?: boolean;
    /** Also by SMS to the patient's mobile (decision 066); off unless asked. */
    sms?: boolean;
    origin: string;
    channel: EmailChannel;
    /** False: the caller tells the professional once for many documents (bulk send, decision 076). */
    notifyProfessional?: boolean;
  };
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * Enviar para Assinatura: draft → sent with a new signing link (expires with the document), in
 * one transaction with its audit event; optionally e-mails the link to the patient. Each witness
 * named on the draft gets their own link too (decision 021).
 * A draft whose deadline already passed gets a fresh one (the link would be born dead).
 */
export async function sendDocument({
  db,
  secretBox,
  actor,
  id,
  input,
  audit,
  now = new Date(),
}: SendDocumentOptions): Promise<SigningLink> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id, true);
    if (document.status === "signed") throw new AppError("DOCUMENT_LOCKED");
    if (document.status !== "draft") throw new AppError("DOCUMENT_NOT_SENDABLE");
    // A link nobody could sign is refused (src/shared/send-readiness, shown before sending too).
    await assertPatientCanSign(tx, actor.tenantId, document.paciente_id, now);
    // Only a clinic that chose "antes do envio" waits for the professional's declaration before
    // sending; otherwise whoever signs last completes the document (decision 050).
    if (
      document.medico_responsavel_id &&
      (await professionalOrder(tx, actor.tenantId)) === "antes_do_envio" &&
      !(await signedRoles(tx, actor.tenantId, id)).includes("profissional")
    ) {
      throw new AppError("PROFESSIONAL_SIGNATURE_MISSING");
    }
    // Signed "a rogo" (decision 070): two witnesses, and the patient's link is for the front desk
    // only — nothing is sent to a patient who cannot read it (the witnesses still get theirs).
    const aRogo = aRogoOf(document.a_rogo);
    if (aRogo && (await selectWitnesses(tx, actor.tenantId, id)).length < A_ROGO_WITNESSES)
      throw new AppError("A_ROGO_WITNESSES_MISSING");
    const toPatient = {
      email: input.email && !aRogo,
      whatsapp: input.whatsapp === true && !aRogo,
      sms: input.sms === true && !aRogo,
    };
    const expiresAt =
      document.expiracao_at.getTime() > now.getTime()
        ? document.expiracao_at
        : new Date(now.getTime() + DOCUMENT_VALIDITY_DAYS * DAY_MS);
    await tx
      .update(contratos)
      .set({ status: "sent", sent_at: now, expiracao_at: expiresAt, updated_at: now })
      .where(and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.id, id)));
    const context = { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit };
    const link = await issueAndShareLink(tx, secretBox, context, {
      document,
      action: "document.sent",
      expiresAt,
      email: toPatient.email,
      origin: input.origin,
      channel: input.channel,
      now,
    });
    // Each witness named on the draft gets a link of their own (decision 021).
    const { clinica } = await loadLinkRecipients(tx, actor.tenantId, document.paciente_id);
    const testemunhas = await issueWitnessLinks(tx, secretBox, context, {
      document,
      clinica,
      expiresAt,
      email: input.email,
      smtp: input.channel.smtp,
      origin: input.origin,
      now,
    });
    // Sent before the professional signed (decision 050): tell them what waits for them.
    if (
      input.notifyProfessional !== false &&
      document.medico_responsavel_id &&
      !(await signedRoles(tx, actor.tenantId, id)).includes("profissional")
    ) {
      await emailAwaitingProfessional(tx, secretBox, {
        tenantId: actor.tenantId,
        professionalId: document.medico_responsavel_id,
        senderId: actor.profileId,
        origin: input.origin,
        now,
      });
    }
    // Decision 059: the link by WhatsApp (Cloud API) when configured, and the first automatic reminder.
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
    await scheduleReminders(tx, {
      tenantId: actor.tenantId,
      contratoId: id,
      sentAt: now,
      expiresAt,
      canais: reminderChannels(toPatient.email, whatsapp, sms),
      testemunhas: testemunhas.length > 0,
    });
    const shared = withSms(whatsapp ? { ...link, whatsapp_enviado: true } : link, sms);
    return testemunhas.length > 0 ? { ...shared, testemunhas } : shared;
  });
}

/** The channels the patient's link went by: the reminders go by the same ones (decision 059, 066). */
export function reminderChannels(email: boolean, whatsapp: boolean, sms: SmsLinkOutcome | null): ReminderChannel[] {
  return [
    ...(email ? (["email"] as const) : []),
    ...(whatsapp ? (["whatsapp"] as const) : []),
    ...(sms?.enviado ? (["sms"] as const) : []),
  ];
}

/** The answer says whether the asked SMS went, and why not (decision 066). */
export function withSms(link: SigningLink, sms: SmsLinkOutcome | null): SigningLink {
  if (!sms) return link;
  return sms.enviado
    ? { ...link, sms_enviado: true, sms_motivo: null }
    : { ...link, sms_enviado: false, sms_motivo: sms.motivo };
}
