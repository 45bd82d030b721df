import type { JobPayloads } from "../../jobs/enqueue-job.js";
import type { JobContext } from "../../jobs/job-context.js";
import type { MessageSender } from "./message-sender.js";
import { zenviaSmsSender } from "./zenvia-sms.js";

/**
 * The "sms.send" job: opens the sealed text (the code never sits in the jobs table in clear) and
 * sends it; a failure throws, so the worker retries with back-off and keeps the error.
 */
export async function sendSmsJob(
  ctx: JobContext,
  payload: JobPayloads["sms.send"],
  sender: MessageSender | null = smsSenderOf(ctx),
): Promise<void> {
  if (!sender) throw new Error("SMS não configurado (SMS_API_TOKEN)");
  const text = ctx.secretBox.open(Buffer.from(payload.sealed, "base64")).toString("utf8");
  const { id } = await sender.send(payload.to, text);
  ctx.log.info({ contratoId: payload.contratoId, providerId: id }, "sms sent");
}

export function smsSenderOf(ctx: Pick<JobContext, "env">): MessageSender | null {
  const { SMS_API_TOKEN, SMS_PROVIDER_URL, SMS_FROM, SMS_TIMEOUT_MS } = ctx.env;
  return SMS_API_TOKEN
    ? zenviaSmsSender({ baseUrl: SMS_PROVIDER_URL, token: SMS_API_TOKEN, from: SMS_FROM, timeoutMs: SMS_TIMEOUT_MS })
    : null;
}
