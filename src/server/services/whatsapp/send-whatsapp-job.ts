import { and, eq } from "drizzle-orm";
import { whatsappMessages } from "../../../db/schema.js";
import type { Env } from "../../env.js";
import type { JobPayloads } from "../../jobs/enqueue-job.js";
import type { JobContext } from "../../jobs/job-context.js";
import { whatsappCloudClient } from "./whatsapp-cloud.js";

function templateOf(env: Env, tipo: JobPayloads["whatsapp.send"]["tipo"]): string {
  if (tipo === "codigo") return env.WHATSAPP_TEMPLATE_CODE;
  if (tipo === "lembrete") return env.WHATSAPP_TEMPLATE_REMINDER;
  return env.WHATSAPP_TEMPLATE_LINK;
}

/**
 * The "whatsapp.send" job (decision 059): opens the sealed parameters and sends the template
 * message through the Cloud API; the message row gets the wamid (status "accepted" until the
 * webhook says sent/delivered/read/failed). A failure is written on the row and thrown, so the
 * worker retries with back-off and keeps the error.
 */
export async function sendWhatsappJob(
  ctx: JobContext,
  payload: JobPayloads["whatsapp.send"],
  tenantId: string,
  now: Date,
): Promise<void> {
  const env = ctx.env;
  const where = and(eq(whatsappMessages.tenant_id, tenantId), eq(whatsappMessages.id, payload.messageId));
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
    await ctx.db
      .update(whatsappMessages)
      .set({ erro: (error instanceof Error ? error.message : String(error)).slice(0, 500) })
      .where(where);
    throw error;
  }
}
