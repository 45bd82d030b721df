import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWhatsapp {
  path: string;
  authorization: string | undefined;
  body: {
    messaging_product: string;
    recipient_type?: string;
    to: string;
    type: string;
    template: {
      name: string;
      language: { code: string };
      components: { type: string; sub_type?: string; index?: string; parameters: { type: string; text: string }[] }[];
    };
  };
  /** The wamid this fake answered with. */
  id: string;
}

export interface FakeWhatsappServer {
  url: string;
  received: ReceivedWhatsapp[];
  /** "ok" answers 200 with messages[0].id; "reject" answers 400 with a Graph error; "down" drops the connection. */
  mode: "ok" | "reject" | "down";
  close(): Promise<void>;
}

/**
 * A local stand-in for the WhatsApp Business Cloud API (Graph API): POST /{version}/{phone-number-id}/messages
 * with `Authorization: Bearer …` and a template message; answers
 * {messaging_product: "whatsapp", contacts: [{input, wa_id}], messages: [{id: "wamid…"}]}, or a
 * Graph error {error: {message, type, code, fbtrace_id}}.
 */
export async function startFakeWhatsapp(expected: {
  phoneNumberId: string;
  token: string;
}): Promise<FakeWhatsappServer> {
  const state: FakeWhatsappServer = { url: "", received: [], mode: "ok", close: async () => {} };
  let next = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (state.mode === "down") return req.socket.destroy();
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      const graphError = (status: number, code: number, message: string) =>
        send(status, { error: { message, type: "OAuthException", code, fbtrace_id: "AbCdEf123" } });
      const match = /^\/v\d+\.\d+\/(\d+)\/messages$/.exec(req.url ?? "");
      if (req.method !== "POST" || !match) return graphError(404, 803, "Unknown path components");
      if (req.headers.authorization !== `Bearer ${expected.token}`)
        return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
      if (match[1] !== expected.phoneNumberId) return graphError(400, 100, "Invalid parameter");
      let body: ReceivedWhatsapp["body"];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ReceivedWhatsapp["body"];
      } catch {
        return graphError(400, 100, "Invalid JSON");
      }
      if (body.messaging_product !== "whatsapp" || body.type !== "template" || !body.template?.name)
        return graphError(400, 131008, "Required parameter is missing");
      if (state.mode === "reject")
        return graphError(400, 131030, "(#131030) Recipient phone number not in allowed list");
      next += 1;
      const id = `wamid.FAKE${String(next).padStart(6, "0")}${Date.now()}`;
      state.received.push({ path: req.url ?? "", authorization: req.headers.authorization, body, id });
      send(200, { messaging_product: "whatsapp", contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

/** A Cloud API status webhook body (entry[].changes[].value.statuses[]), as Meta posts it. */
export function statusWebhook(
  wamid: string,
  status: "sent" | "delivered" | "read" | "failed",
  options: { timestamp?: number; recipient?: string; phoneNumberId?: string } = {},
): string {
  const statusObject: Record<string, unknown> = {
    id: wamid,
    status,
    timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
    recipient_id: options.recipient ?? "5511987654321",
  };
  if (status === "failed") statusObject.errors = [{ code: 131026, title: "Message undeliverable" }];
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: {
                display_phone_number: "5511912345678",
                phone_number_id: options.phoneNumberId ?? "106540352242922",
              },
              statuses: [statusObject],
            },
          },
        ],
      },
    ],
  });
}

/** X-Hub-Signature-256 of a body: "sha256=" + hex HMAC-SHA256 with the app secret. */
export function hubSignature(body: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`;
}
