import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedSms {
  token: string | undefined;
  from: string;
  to: string;
  text: string;
}

export interface FakeZenviaServer {
  url: string;
  received: ReceivedSms[];
  /** "ok" answers 200 {id}; "reject" answers 400 with a message; "down" drops the connection. */
  mode: "ok" | "reject" | "down";
  close(): Promise<void>;
}

/**
 * A local stand-in for Zenvia API v2 SMS (POST /v2/channels/sms/messages, header X-API-TOKEN,
 * body {from, to, contents: [{type: "text", text}]}, answer 200 {id, from, to, channel, …}).
 */
export async function startFakeZenvia(): Promise<FakeZenviaServer> {
  const state: FakeZenviaServer = { url: "", received: [], mode: "ok", close: async () => {} };
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
      if (req.method !== "POST" || req.url !== "/v2/channels/sms/messages")
        return send(404, { code: "NOT_FOUND", message: "Not found" });
      if (!req.headers["x-api-token"]) return send(401, { code: "UNAUTHORIZED", message: "Missing token" });
      if (state.mode === "reject") return send(400, { code: "VALIDATION_ERROR", message: "Invalid recipient" });
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        from: string;
        to: string;
        contents: { type: string; text: string }[];
      };
      state.received.push({
        token: req.headers["x-api-token"] as string,
        from: body.from,
        to: body.to,
        text: body.contents[0]?.text ?? "",
      });
      next += 1;
      send(200, {
        id: `msg-${next}`,
        from: body.from,
        to: body.to,
        direction: "OUT",
        channel: "sms",
        contents: body.contents,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
