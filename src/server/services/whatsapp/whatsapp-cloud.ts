import { fetchOutbound } from "../../lib/outbound-address.js";
import { MessageSendError } from "../messaging/message-sender.js";

export interface WhatsappCloudConfig {
  /** https://graph.facebook.com (WHATSAPP_API_URL) */
  baseUrl: string;
  /** v21.0 (WHATSAPP_API_VERSION) */
  version: string;
  /** WHATSAPP_PHONE_NUMBER_ID: the business number messages leave from. */
  phoneNumberId: string;
  /** WHATSAPP_ACCESS_TOKEN, sent as a Bearer token. */
  token: string;
  /** pt_BR (WHATSAPP_TEMPLATE_LANGUAGE) */
  language: string;
  timeoutMs: number;
  /** OUTBOUND_ALLOW_PRIVATE_NETWORK: the API may be on this machine (the tests' fake). */
  allowPrivateNetwork: boolean;
}

export interface TemplateMessage {
  /** Digits with the country code, e.g. 5511987654321. */
  to: string;
  /** The approved template's name. */
  template: string;
  /** The body's {{1}}, {{2}}… in order. */
  body: string[];
  /** An authentication template's copy-code button carries the code too (index 0, sub_type url). */
  codeButton?: string;
}

/** The request body of a template message (Graph API, Cloud API "messages" edge). */
export function templateMessageBody(message: TemplateMessage, language: string): Record<string, unknown> {
  const components: Record<string, unknown>[] = [
    { type: "body", parameters: message.body.map((text) => ({ type: "text", text })) },
  ];
  if (message.codeButton !== undefined)
    components.push({
      type: "button",
      sub_type: "url",
      index: "0",
      parameters: [{ type: "text", text: message.codeButton }],
    });
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: message.to,
    type: "template",
    template: { name: message.template, language: { code: language }, components },
  };
}

/**
 * WhatsApp Business Cloud API (decision 059): POST {base}/{version}/{phone-number-id}/messages with
 * `Authorization: Bearer`, a template message (the business starts the conversation, so only
 * approved templates may go); a 2xx answer carries `messages[0].id` (the wamid). Errors come as
 * `{error: {message, code}}` and become MessageSendError with Meta's words; the request goes through
 * the outbound-address rule (decision 053) since the URL is configuration.
 */
export function whatsappCloudClient(config: WhatsappCloudConfig) {
  const url = new URL(
    `${config.version}/${encodeURIComponent(config.phoneNumberId)}/messages`,
    config.baseUrl.endsWith("/") ? config.baseUrl : `${config.baseUrl}/`,
  ).toString();
  return {
    async sendTemplate(message: TemplateMessage): Promise<{ id: string }> {
      let response: Response;
      try {
        response = await fetchOutbound(
          url,
          {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${config.token}` },
            body: JSON.stringify(templateMessageBody(message, config.language)),
            signal: AbortSignal.timeout(config.timeoutMs),
          },
          { allowPrivateNetwork: config.allowPrivateNetwork, maxRedirects: 0 },
        );
      } catch (error) {
        throw new MessageSendError(
          `WhatsApp: sem resposta da API (${error instanceof Error ? `${error.name}: ${error.message}` : "erro"})`,
          null,
        );
      }
      const body = (await response.json().catch(() => null)) as {
        messages?: { id?: unknown }[];
        error?: { message?: unknown; code?: unknown };
      } | null;
      if (!response.ok) {
        const said = typeof body?.error?.message === "string" ? `: ${body.error.message}` : "";
        const code = typeof body?.error?.code === "number" ? ` (código ${body.error.code})` : "";
        throw new MessageSendError(
          `WhatsApp recusou a mensagem (HTTP ${response.status})${code}${said}`,
          response.status,
        );
      }
      const id = body?.messages?.[0]?.id;
      if (typeof id !== "string" || !id)
        throw new MessageSendError("WhatsApp: resposta da API sem id da mensagem", response.status);
      return { id };
    },
  };
}
