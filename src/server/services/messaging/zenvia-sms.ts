import { type MessageSender, MessageSendError } from "./message-sender.js";

export interface ZenviaConfig {
  /** https://api.zenvia.com (SMS_PROVIDER_URL) */
  baseUrl: string;
  /** X-API-TOKEN (SMS_API_TOKEN) */
  token: string;
  /** The sender id registered at Zenvia (SMS_FROM). */
  from: string;
  timeoutMs: number;
}

/**
 * Zenvia API v2 (decision 018): POST /v2/channels/sms/messages with X-API-TOKEN and
 * {from, to, contents: [{type: "text", text}]}; a 2xx answer carries the message id.
 */
export function zenviaSmsSender(config: ZenviaConfig): MessageSender {
  const url = new URL("/v2/channels/sms/messages", config.baseUrl).toString();
  return {
    channel: "sms",
    async send(to, text) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-token": config.token },
          body: JSON.stringify({ from: config.from, to, contents: [{ type: "text", text }] }),
          signal: AbortSignal.timeout(config.timeoutMs),
        });
      } catch (error) {
        throw new MessageSendError(
          `SMS: sem resposta do provedor (${error instanceof Error ? error.name : "erro"})`,
          null,
        );
      }
      const body = (await response.json().catch(() => null)) as { id?: unknown; message?: unknown } | null;
      if (!response.ok) {
        const said = typeof body?.message === "string" ? `: ${body.message}` : "";
        throw new MessageSendError(`SMS recusado pelo provedor (HTTP ${response.status})${said}`, response.status);
      }
      if (typeof body?.id !== "string" || !body.id)
        throw new MessageSendError("SMS: resposta do provedor sem id da mensagem", response.status);
      return { id: body.id };
    },
  };
}

/** 5511987654321 from a Brazilian mobile on record. */
export function smsAddress(normalizedPhone: string): string {
  return `55${normalizedPhone}`;
}
