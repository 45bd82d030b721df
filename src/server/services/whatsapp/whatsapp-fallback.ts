import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { auditEvents, contratos, contratoTestemunhas, signingOtps, whatsappMessages } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { isMobilePhone, maskPhone4, normalizePhone } from "../../../shared/br/phone.js";
import { remindersContinue } from "../../../shared/reminders/reminder-schedule.js";
import { maskEmail, OTP_TTL_MINUTES, signingPath } from "../../../shared/schemas/signing.js";
import { enqueueJob, type JobPayloads } from "../../jobs/enqueue-job.js";
import type { JobContext } from "../../jobs/job-context.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import { smsCodeText, smsLinkText } from "../messaging/sms-send-link.js";
import { smsAddress } from "../messaging/zenvia-sms.js";
import { loadLinkRecipients } from "../signing/signing-link.js";
import { hashSigningCode, newSigningCode, signingCodeKey } from "../signing/signing-codes.js";
import { emailChannelOf } from "../signing/signing-settings.js";
import { currentSigningToken } from "../signing/signing-tokens.js";
import { ofSigner } from "../signing/of-signer.js";
import { signedCopyBySms } from "../finalize/signed-copy-message.js";
import { choiceRecordBySms } from "../choices/choice-record-message.js";

/** Queues the fallback of a message that failed for good (once per message: the dedupe key). */
export async function enqueueWhatsappFallback(tx: Tx, tenantId: string, messageId: string): Promise<void> {
  await enqueueJob(tx, {
    kind: "whatsapp.fallback",
    tenantId,
    payload: { messageId },
    dedupeKey: `whatsapp-fallback:${messageId}`,
  });
}

type Fallback = "sms" | "email" | "nenhum";

/**
 * The "whatsapp.fallback" job (decision 066): a WhatsApp message that failed for good (the
 * webhook said "failed", or the last attempt of its send failed) goes once by SMS (when the server
 * has SMS and the mobile is one) or else by e-mail (when one can be read). The link and the
 * reminder carry the live link; a code cannot be sent again (only its hash is kept), so a new one
 * replaces it and the trail's 'document.otp_sent' names the channel that really carried it (the
 * evidence's `codigo_canal`). The signed copy's message goes by SMS only (decision 074). Written on the message (`fallback`) and in the trail
 * ('document.whatsapp_fallback'), shown on the document page.
 */
export async function whatsappFallback(
  ctx: JobContext,
  payload: JobPayloads["whatsapp.fallback"],
  tenantId: string,
  now: Date,
): Promise<Fallback | null> {
  return withTenant(ctx.db, tenantId, async (tx) => {
    const [doc] = await tx
      .select({
        id: contratos.id,
        status: contratos.status,
        titulo: contratos.titulo,
        paciente_id: contratos.paciente_id,
      })
      .from(contratos)
      .innerJoin(
        whatsappMessages,
        and(eq(whatsappMessages.tenant_id, contratos.tenant_id), eq(whatsappMessages.contrato_id, contratos.id)),
      )
      .where(and(eq(whatsappMessages.tenant_id, tenantId), eq(whatsappMessages.id, payload.messageId)))
      .for("update", { of: contratos });
    if (!doc) return null;
    const [message] = await tx
      .select()
      .from(whatsappMessages)
      .where(and(eq(whatsappMessages.tenant_id, tenantId), eq(whatsappMessages.id, payload.messageId)))
      .for("update");
    if (!message || message.fallback) return null;
    const channel = emailChannelOf(ctx.env);
    let used: Fallback = "nenhum";
    let destino: string | null = null;
    if (message.tipo === "via_assinada") {
      // The signed copy's message (decision 074): by SMS when no e-mail on record carried the copy.
      destino = doc.status === "signed" ? await signedCopyBySms(tx, ctx, tenantId, doc.id, now) : null;
      if (destino) used = "sms";
    } else if (message.tipo === "registro") {
      // A refusal's or revocation's record (decision 074): the same words by SMS.
      destino = await choiceRecordBySms(tx, ctx, tenantId, {
        contratoId: doc.id,
        messageId: message.id,
        pacienteId: doc.paciente_id,
        titulo: doc.titulo,
        clinicName: (await loadLinkRecipients(tx, tenantId, doc.paciente_id, now)).clinica,
      });
      if (destino) used = "sms";
    } else if (remindersContinue(doc.status)) {
      // Nothing to carry once the document no longer waits (signed, refused, cancelled, expired).
      const { patient, clinica } = await loadLinkRecipients(tx, tenantId, doc.paciente_id, now);
      if (message.tipo === "codigo") {
        const sent = await resendCode(ctx, tx, { tenantId, doc, clinica, channel, now });
        used = sent?.canal ?? "nenhum";
        destino = sent?.destino ?? null;
      } else {
        const current = await currentSigningToken({ tx, secretBox: ctx.secretBox, tenantId, contratoId: doc.id, now });
        if (current) {
          const link = `${ctx.origin}${signingPath(current.token)}`;
          const first = patient.nome.trim().split(/\s+/)[0] ?? patient.nome;
          if (channel.sms && isMobilePhone(patient.telefone)) {
            const phone = normalizePhone(patient.telefone!);
            // No title: an SMS shows on a locked screen, and a term's title can name a health matter.
            const text = smsLinkText(clinica, patient.nome, link);
            await enqueueJob(tx, {
              kind: "sms.send",
              tenantId,
              payload: {
                to: smsAddress(phone),
                sealed: ctx.secretBox.seal(text).toString("base64"),
                contratoId: doc.id,
              },
              maxAttempts: 4,
              runAt: now,
            });
            used = "sms";
            destino = maskPhone4(phone);
          } else if (channel.usable && patient.email) {
            await enqueueEmail(tx, ctx.secretBox, {
              tenantId,
              to: patient.email,
              subject: `${clinica}: documento para assinatura — ${doc.titulo}`,
              text:
                `Olá, ${first}!\n\n` +
                `${clinica} enviou o documento "${doc.titulo}" para você ler e assinar eletronicamente ` +
                `(a mensagem pelo WhatsApp não pôde ser entregue).\n\n${link}\n\n` +
                `O link é pessoal: não o encaminhe a outras pessoas.`,
            });
            used = "email";
            destino = maskEmail(patient.email);
          }
        }
      }
    }
    await tx
      .update(whatsappMessages)
      .set({ fallback: used })
      .where(and(eq(whatsappMessages.tenant_id, tenantId), eq(whatsappMessages.id, message.id)));
    await recordAuditEvent(
      tx,
      { tenantId, actorProfileId: null },
      {
        action: "document.whatsapp_fallback",
        entityType: "contrato",
        entityId: doc.id,
        data: { tipo: message.tipo, whatsapp: message.destino, erro: message.erro, canal: used, destino },
      },
    );
    return used;
  });
}

/** A new code for the signer the failed WhatsApp code was for, by SMS or e-mail; null when neither can carry it. */
async function resendCode(
  ctx: JobContext,
  tx: Tx,
  input: {
    tenantId: string;
    doc: { id: string; titulo: string };
    clinica: string;
    channel: ReturnType<typeof emailChannelOf>;
    now: Date;
  },
): Promise<{ canal: "sms" | "email"; destino: string } | null> {
  const { tenantId, doc, channel, now } = input;
  // Whose code it was: the trail's last WhatsApp code of this document.
  const [event] = await tx
    .select({ data: auditEvents.data })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tenant_id, tenantId),
        eq(auditEvents.entity_type, "contrato"),
        eq(auditEvents.entity_id, doc.id),
        eq(auditEvents.action, "document.otp_sent"),
        sql`${auditEvents.data} ->> 'canal' = 'whatsapp'`,
      ),
    )
    .orderBy(desc(auditEvents.seq))
    .limit(1);
  const testemunhaId = ((event?.data ?? {}) as { testemunha_id?: string }).testemunha_id ?? null;
  const [signer] = testemunhaId
    ? await tx
        .select({
          nome: contratoTestemunhas.nome,
          email: contratoTestemunhas.email,
          telefone: contratoTestemunhas.telefone,
        })
        .from(contratoTestemunhas)
        .where(and(eq(contratoTestemunhas.tenant_id, tenantId), eq(contratoTestemunhas.id, testemunhaId)))
    : await tx
        .select({ paciente_id: contratos.paciente_id })
        .from(contratos)
        .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, doc.id)))
        .then(async ([row]) => {
          if (!row) return [];
          // The patient's link: the guardian's own contacts when they sign and have them.
          const { patient } = await loadLinkRecipients(tx, tenantId, row.paciente_id, now);
          return [patient];
        });
  if (!signer) return null;
  const sms = channel.sms && isMobilePhone(signer.telefone);
  const email = !sms && channel.usable && !!signer.email;
  if (!sms && !email) return null;

  await tx
    .update(signingOtps)
    .set({ expires_at: now })
    .where(
      and(
        eq(signingOtps.tenant_id, tenantId),
        eq(signingOtps.contrato_id, doc.id),
        ofSigner(signingOtps.testemunha_id, testemunhaId),
        isNull(signingOtps.consumed_at),
        gt(signingOtps.expires_at, now),
      ),
    );
  const code = newSigningCode();
  await tx.insert(signingOtps).values({
    tenant_id: tenantId,
    contrato_id: doc.id,
    code_hash: hashSigningCode(signingCodeKey(ctx.secretBox), doc.id, code),
    expires_at: new Date(now.getTime() + OTP_TTL_MINUTES * 60_000),
    created_at: now,
    testemunha_id: testemunhaId,
  });
  const whose = testemunhaId
    ? { testemunha_id: testemunhaId }
    : "titular" in signer && signer.titular === "responsavel"
      ? { contato_de: "responsavel" as const }
      : {};
  const audit = { tenantId, actorProfileId: null };
  if (sms) {
    const phone = normalizePhone(signer.telefone!);
    const text = smsCodeText(input.clinica, code);
    await enqueueJob(tx, {
      kind: "sms.send",
      tenantId,
      payload: { to: smsAddress(phone), sealed: ctx.secretBox.seal(text).toString("base64"), contratoId: doc.id },
      maxAttempts: 4,
      runAt: now,
    });
    const destino = maskPhone4(phone);
    await recordAuditEvent(tx, audit, {
      action: "document.otp_sent",
      entityType: "contrato",
      entityId: doc.id,
      data: { canal: "sms", telefone: destino, reenvio_whatsapp: true, ...whose },
    });
    return { canal: "sms", destino };
  }
  const to = signer.email!;
  const first = signer.nome.trim().split(/\s+/)[0] ?? signer.nome;
  await enqueueEmail(tx, ctx.secretBox, {
    tenantId,
    to,
    subject: `${input.clinica}: seu código para assinar — ${code}`,
    recordedSubject: `${input.clinica}: seu código para assinar`,
    text:
      `Olá, ${first}!\n\n` +
      `O código pelo WhatsApp não pôde ser entregue. Seu código para assinar o documento "${doc.titulo}" é:\n\n${code}\n\n` +
      `Ele vale por ${OTP_TTL_MINUTES} minutos. Não compartilhe este código com ninguém.`,
  });
  const destino = maskEmail(to);
  await recordAuditEvent(tx, audit, {
    action: channel.smtp ? "document.otp_sent" : "document.otp_email_outbox",
    entityType: "contrato",
    entityId: doc.id,
    data: { canal: "email", email: destino, smtp: channel.smtp, reenvio_whatsapp: true, ...whose },
  });
  return { canal: "email", destino };
}
