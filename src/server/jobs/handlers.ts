import { sealChoiceRecord } from "../services/choices/seal-choice-record.js";
import { finalizeSignedDocument } from "../services/finalize/finalize-signed-document.js";
import { runFeegowUpload } from "../services/feegow/run-feegow-upload.js";
import { sendSmsJob } from "../services/messaging/send-sms-job.js";
import { sendReminder } from "../services/reminders/send-reminder.js";
import { sendWhatsappJob } from "../services/whatsapp/send-whatsapp-job.js";
import { whatsappFallback } from "../services/whatsapp/whatsapp-fallback.js";
import { deliverWebhook } from "../services/webhooks/deliver-webhook.js";
import { retimestampArchive } from "../services/archive/retimestamp-archive.js";
import { renewTrailAnchors, timestampAuditTrails } from "../services/audit/trail-timestamps.js";
import { runDailyBackup } from "./daily-backup.js";
import { expireDocuments } from "./expire-documents.js";
import type { JobHandlers } from "./run-due-jobs.js";

/** What each job kind does. */
export const jobHandlers: JobHandlers = {
  "document.finalize": async (ctx, payload, tenantId) => {
    if (!tenantId) throw new Error("document.finalize needs the document's tenant");
    await finalizeSignedDocument(ctx, payload, tenantId);
  },
  "document.choice_record": async (ctx, payload, tenantId) => {
    if (!tenantId) throw new Error("document.choice_record needs the document's tenant");
    await sealChoiceRecord(ctx, payload, tenantId);
  },
  "documents.expire": async (ctx) => {
    await expireDocuments(ctx.db);
  },
  "sms.send": async (ctx, payload) => {
    await sendSmsJob(ctx, payload);
  },
  "feegow.upload": async (ctx, payload, tenantId) => {
    if (!tenantId) throw new Error("feegow.upload needs the document's tenant");
    await runFeegowUpload(ctx, payload, tenantId);
  },
  "backup.daily": async (ctx, payload) => {
    await runDailyBackup(ctx, payload);
  },
  "archive.retimestamp": async (ctx, _payload, _tenantId, now) => {
    await retimestampArchive(ctx);
    // The trail's anchors, by the same rule as the sealed PDFs (decision 078).
    await renewTrailAnchors(ctx, now);
  },
  "audit.trail_timestamp": async (ctx, _payload, _tenantId, now) => {
    await timestampAuditTrails(ctx, now);
  },
  "document.remind": async (ctx, payload, tenantId, now) => {
    if (!tenantId) throw new Error("document.remind needs the document's tenant");
    await sendReminder(ctx, payload, tenantId, now);
  },
  "whatsapp.send": async (ctx, payload, tenantId, now, attempt) => {
    if (!tenantId) throw new Error("whatsapp.send needs the message's tenant");
    await sendWhatsappJob({ ctx, payload, tenantId, now, attempt });
  },
  "whatsapp.fallback": async (ctx, payload, tenantId, now) => {
    if (!tenantId) throw new Error("whatsapp.fallback needs the message's tenant");
    await whatsappFallback(ctx, payload, tenantId, now);
  },
  "webhook.deliver": async (ctx, payload, tenantId, now) => {
    if (!tenantId) throw new Error("webhook.deliver needs the delivery's tenant");
    await deliverWebhook({ ctx, payload, tenantId, now });
  },
};
