import { and, eq } from "drizzle-orm";
import { contratos, whatsappMessages } from "../../../db/schema.js";
import { isReminderHour, remindersContinue } from "../../../shared/reminders/reminder-schedule.js";
import type { Env } from "../../env.js";
import type { JobPayloads } from "../../jobs/enqueue-job.js";
import type { JobContext } from "../../jobs/job-context.js";
import { whatsappCloudClient } from "./whatsapp-cloud.js";
import { enqueueWhatsappFallback } from "./whatsapp-fallback.js";

function templateOf(env: Env, tipo: JobPayloads["whatsapp.send"]["tipo"]): string {
  if (tipo === "codigo") return env.WHATSAPP_TEMPLATE_CODE;
  if (tipo === "lembrete") return env.WHATSAPP_TEMPLATE_REMINDER;
  if (tipo === "via_assinada") return env.WHATSAPP_TEMPLATE_SIGNED_COPY;
  if (tipo === "registro") return env.WHATSAPP_TEMPLATE_CHOICE_RECORD;
  return env.WHATSAPP_TEMPLATE_LINK;
}

export interface SendWhatsappJobOptions {
  ctx: JobContext;
  payload: JobPayloads["whatsapp.send"];
  tenantId: string;
  now: Date;
  attempt?: { number: number; max: number };
}

/**
 * The "whatsapp.send" job (decision 059): opens the sealed parameters and sends the template
 * message through the Cloud API; the message row gets the wamid (status "accepted" until the
 * webhook says sent/delivered/read/failed). A failure is written on the row and thrown, so the
 * worker retries with back-off and keeps the error.
 */
export async function sendWhatsappJob({ ctx, payload, tenantId, now, attempt }: SendWhatsappJobOptions): Promise<void> {
  const env = ctx.env;
  const where = and(eq(whatsappMessages.tenant_id, tenantId), eq(whatsappMessages.id, payload.messageId));
  const [row] = await ctx.db
    .select({ wamid: whatsappMessages.wamid, contratoId: whatsappMessages.contrato_id })
    .from(whatsappMessages)
    .where(where)
    .limit(1);
  // Meta took it already (the update after the send failed): a retry must not send it twice.
  if (!row || row.wamid) return;
  if (payload.tipo === "lembrete" && !(await reminderStillDue(ctx, tenantId, row.contratoId, now))) {
    await ctx.db
      .update(whatsappMessages)
      .set({ erro: "lembrete não enviado: o documento não aguarda mais a assinatura, ou fora do horário" })
      .where(where);
    return;
  }
  try {
    if (!env.WHATSAPP_PHONE_NUMBER_ID || !env.WHATSAPP_ACCESS_TOKEN)
      throw new Error("WhatsApp não configurado (WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_ACCESS_TOKEN)");
    const params = JSON.parse(ctx.secretBox.open(Buffer.from(payload.sealed, "base64")).toString("utf8")) as string[];
    const client = whatsappCloudClient({
      baseUrl: env.WHATSAPP_API_URL,
      version: env.WHATSAPP_API_VERSION,
      phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
      token: env.WHATSAPP_ACCESS_TOKEN,
      language: env.WHATSAPP_TEMPLATE_LANGUAGE,
      timeoutMs: env.WHATSAPP_TIMEOUT_MS,
      allowPrivateNetwork: env.OUTBOUND_ALLOW_PRIVATE_NETWORK,
    });
    const { id } = await client.sendTemplate({
      to: payload.to,
      template: templateOf(env, payload.tipo),
      body: params,
      ...(payload.tipo === "codigo" ? { codeButton: params[0] ?? "" } : {}),
    });
    // A status the webhook already wrote (it can outrun this update) is kept.
    await ctx.db.update(whatsappMessages).set({ wamid: id, erro: null }).where(where);
    await ctx.db
      .update(whatsappMessages)
      .set({ status: "accepted", status_at: now })
      .where(and(where, eq(whatsappMessages.status, "queued")));
    ctx.log.info({ messageId: payload.messageId, wamid: id }, "whatsapp sent");
  } catch (error) {
    const last = attempt !== undefined && attempt.number >= attempt.max;
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(whatsappMessages)
        .set({
          erro: (error instanceof Error ? error.message : String(error)).slice(0, 500),
          // The last attempt failed: the message failed for good, and goes by SMS or e-mail (decision 066).
          ...(last ? { status: "failed", status_at: now } : {}),
        })
        .where(where);
      if (last) await enqueueWhatsappFallback(tx, tenantId, payload.messageId);
    });
    throw error;
  }
}

/**
 * A reminder retried after an outage goes only while it still makes sense: the document still
 * waits for the patient, before its deadline, in the day's sending hours (decision 059).
 */
async function reminderStillDue(ctx: JobContext, tenantId: string, contratoId: string, now: Date): Promise<boolean> {
  const [doc] = await ctx.db
    .select({ status: contratos.status, expiracao_at: contratos.expiracao_at })
    .from(contratos)
    .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, contratoId)))
    .limit(1);
  return !!doc && remindersContinue(doc.status) && doc.expiracao_at > now && isReminderHour(now);
}
