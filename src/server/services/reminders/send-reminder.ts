import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratoPartes, contratos, documentReminders } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { isMobilePhone, normalizePhone } from "../../../shared/br/phone.js";
import {
  isReminderHour,
  nextReminderHour,
  reminderSchedule,
  remindersContinue,
} from "../../../shared/reminders/reminder-schedule.js";
import { signingPath } from "../../../shared/schemas/signing.js";
import { enqueueJob, type JobPayloads, type ReminderChannel } from "../../jobs/enqueue-job.js";
import type { JobContext } from "../../jobs/job-context.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import { loadLinkRecipients } from "../signing/signing-link.js";
import { currentSigningToken } from "../signing/signing-tokens.js";
import { selectWitnesses } from "../witnesses/witness-rows.js";
import { enqueueWhatsapp, whatsappConfigured } from "../whatsapp/enqueue-whatsapp.js";
import { reminderSettings } from "./reminder-settings.js";
import { enqueueSms, smsLinkText } from "../messaging/sms-send-link.js";
import { emailChannelOf } from "../signing/signing-settings.js";

export type ReminderOutcome = "sent" | "stopped" | "rescheduled" | "already_sent" | "nobody";

const deadlineFormat = new Intl.DateTimeFormat("pt-BR", {
  timeZone: "America/Sao_Paulo",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

async function requeue(tx: Tx, tenantId: string, payload: JobPayloads["document.remind"], at: Date): Promise<void> {
  await enqueueJob(tx, {
    kind: "document.remind",
    tenantId,
    payload,
    dedupeKey: `remind:${payload.contratoId}:${payload.ordem}:${at.getTime()}`,
    runAt: at,
  });
}

/**
 * The "document.remind" job (decision 059): with the document locked, re-sends the SAME live link
 * to the patient and to each witness who has not signed, by the channels of the send (e-mail
 * outbox, WhatsApp, SMS), records reminder `ordem` once (document_reminders' unique key) with its audit
 * event, and queues the next one — all in one transaction, so a failure leaves nothing half done
 * and the job is retried. It stops for good once the document left sent/viewed, passed its
 * deadline, or the clinic turned reminders off; outside 8 h–20 h (São Paulo) it waits for 8 h.
 */
export async function sendReminder(
  ctx: JobContext,
  payload: JobPayloads["document.remind"],
  tenantId: string,
  now: Date,
): Promise<ReminderOutcome> {
  return withTenant(ctx.db, tenantId, async (tx) => {
    const [doc] = await tx
      .select({
        id: contratos.id,
        status: contratos.status,
        titulo: contratos.titulo,
        paciente_id: contratos.paciente_id,
        sent_at: contratos.sent_at,
        lembretes_desde: contratos.lembretes_desde,
        expiracao_at: contratos.expiracao_at,
      })
      .from(contratos)
      .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, payload.contratoId)))
      .for("update");
    if (!doc?.sent_at || !remindersContinue(doc.status) || now >= doc.expiracao_at) return "stopped";
    const settings = await reminderSettings(tx, tenantId);
    if (!settings.ativo) return "stopped";
    // Reenviar started another chain (decision 066): this one's jobs stop.
    const chainStart = doc.lembretes_desde ?? doc.sent_at;
    const jobStart = payload.desde ? new Date(payload.desde) : doc.sent_at;
    if (jobStart.getTime() !== chainStart.getTime()) return "stopped";
    const base = payload.base ?? 0;
    const schedule = reminderSchedule({ sentAt: chainStart, expiresAt: doc.expiracao_at, maximo: settings.maximo });
    const due = schedule[payload.ordem - base - 1];
    if (!due) return "stopped";
    if (now < due) {
      await requeue(tx, tenantId, payload, due);
      return "rescheduled";
    }
    if (!isReminderHour(now)) {
      const morning = nextReminderHour(now);
      if (morning >= doc.expiracao_at) return "stopped";
      await requeue(tx, tenantId, payload, morning);
      return "rescheduled";
    }
    const [done] = await tx
      .select({ id: documentReminders.id })
      .from(documentReminders)
      .where(
        and(
          eq(documentReminders.tenant_id, tenantId),
          eq(documentReminders.contrato_id, doc.id),
          eq(documentReminders.ordem, payload.ordem),
        ),
      )
      .limit(1);
    if (done) return "already_sent";

    const canais = await remind(ctx, tx, { tenantId, doc, canais: payload.canais, now });
    const next = schedule[payload.ordem - base];
    if (next) await requeue(tx, tenantId, { ...payload, ordem: payload.ordem + 1 }, next);
    if (canais.length === 0) return "nobody";
    const inserted = await tx
      .insert(documentReminders)
      .values({ tenant_id: tenantId, contrato_id: doc.id, ordem: payload.ordem, canais, enviado_em: now })
      .onConflictDoNothing()
      .returning({ id: documentReminders.id });
    // The document is locked and the row was absent: a conflict here means a bug, not a race.
    if (inserted.length === 0) throw new Error(`reminder ${payload.ordem} of ${doc.id} written twice`);
    await recordAuditEvent(
      tx,
      { tenantId, actorProfileId: null },
      {
        action: "document.reminder_sent",
        entityType: "contrato",
        entityId: doc.id,
        data: { ordem: payload.ordem, canais, enviado_em: now.toISOString() },
      },
    );
    return "sent";
  });
}

/** Queues the reminder's messages; answers what went, e.g. ["e-mail", "WhatsApp", "e-mail (testemunha 1)"]. */
async function remind(
  ctx: JobContext,
  tx: Tx,
  input: {
    tenantId: string;
    doc: { id: string; titulo: string; paciente_id: string; expiracao_at: Date };
    canais: ReminderChannel[];
    now: Date;
  },
): Promise<string[]> {
  const { tenantId, doc, now } = input;
  const sent: string[] = [];
  const signed = await tx
    .select({ papel: contratoPartes.papel, ordem: contratoPartes.ordem })
    .from(contratoPartes)
    .where(
      and(
        eq(contratoPartes.tenant_id, tenantId),
        eq(contratoPartes.contrato_id, doc.id),
        inArray(contratoPartes.papel, ["paciente", "responsavel", "testemunha"]),
      ),
    );
  const { patient, clinica } = await loadLinkRecipients(tx, tenantId, doc.paciente_id, now);
  const prazo = deadlineFormat.format(doc.expiracao_at);
  const email = input.canais.includes("email");
  const whatsapp = input.canais.includes("whatsapp") && whatsappConfigured(ctx.env);
  // The link went by SMS (decision 066): so does its reminder, while the server still has SMS.
  const sms = input.canais.includes("sms") && emailChannelOf(ctx.env).sms;

  if (!signed.some((s) => s.papel === "paciente" || s.papel === "responsavel")) {
    const current = await currentSigningToken({ tx, secretBox: ctx.secretBox, tenantId, contratoId: doc.id, now });
    if (current) {
      const link = `${ctx.origin}${signingPath(current.token)}`;
      const first = patient.nome.trim().split(/\s+/)[0] ?? patient.nome;
      if (email && patient.email) {
        await enqueueEmail(tx, ctx.secretBox, {
          tenantId,
          to: patient.email,
          subject: `${clinica}: lembrete — documento aguardando sua assinatura (${doc.titulo})`,
          text:
            `Olá, ${first}!\n\n` +
            `Lembrete: o documento "${doc.titulo}", enviado por ${clinica}, ainda aguarda sua assinatura.\n\n` +
            `Abra o link abaixo (válido até ${prazo}, horário de Brasília):\n\n${link}\n\n` +
            `O link é pessoal: não o encaminhe a outras pessoas. Se você já assinou ou não reconhece este envio, ignore este e-mail.`,
        });
        sent.push("e-mail");
      }
      if (whatsapp && isMobilePhone(patient.telefone)) {
        await enqueueWhatsapp(tx, ctx.secretBox, {
          tenantId,
          contratoId: doc.id,
          tipo: "lembrete",
          telefone: normalizePhone(patient.telefone!),
          params: [first, clinica, doc.titulo, link, prazo],
        });
        sent.push("WhatsApp");
      }
      if (sms && isMobilePhone(patient.telefone)) {
        await enqueueSms(tx, ctx.secretBox, {
          tenantId,
          contratoId: doc.id,
          telefone: normalizePhone(patient.telefone!),
          text: smsLinkText(clinica, patient.nome, link, true),
          now,
        });
        sent.push("SMS");
      }
    }
  }

  // A witness's reminder goes to the witness's own e-mail, whatever carried the patient's link (decision 066).
  {
    for (const witness of await selectWitnesses(tx, tenantId, doc.id)) {
      if (!witness.email || signed.some((s) => s.papel === "testemunha" && s.ordem === witness.ordem)) continue;
      const current = await currentSigningToken({
        tx,
        secretBox: ctx.secretBox,
        tenantId,
        contratoId: doc.id,
        now,
        testemunhaId: witness.id,
      });
      if (!current) continue;
      const first = witness.nome.trim().split(/\s+/)[0] ?? witness.nome;
      await enqueueEmail(tx, ctx.secretBox, {
        tenantId,
        to: witness.email,
        subject: `${clinica}: lembrete — documento aguardando sua assinatura como testemunha (${doc.titulo})`,
        text:
          `Olá, ${first}!\n\n` +
          `Lembrete: o documento "${doc.titulo}", de ${clinica}, ainda aguarda sua assinatura como testemunha.\n\n` +
          `Abra o link abaixo (válido até ${prazo}, horário de Brasília):\n\n${ctx.origin}${signingPath(current.token)}\n\n` +
          `O link é pessoal: não o encaminhe a outras pessoas.`,
      });
      sent.push(`e-mail (testemunha ${witness.ordem})`);
    }
  }
  return sent;
}

/** Reminders recorded for a document, oldest first (the document page's "Lembrete enviado em …"). */
export async function listReminders(
  tx: Tx,
  tenantId: string,
  contratoId: string,
): Promise<{ ordem: number; canais: string[]; enviado_em: Date }[]> {
  return tx
    .select({
      ordem: documentReminders.ordem,
      canais: documentReminders.canais,
      enviado_em: documentReminders.enviado_em,
    })
    .from(documentReminders)
    .where(and(eq(documentReminders.tenant_id, tenantId), eq(documentReminders.contrato_id, contratoId)))
    .orderBy(sql`${documentReminders.ordem}`);
}
