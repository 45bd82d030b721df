import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ReceivedWebhook {
  headers: Record<string, string | undefined>;
  /** The raw body, as a receiver must verify it (before any JSON parsing). */
  body: string;
}

export type ReceiverMode = "ok" | "fail" | "hang" | "redirect" | "slow";

export interface FakeWebhookReceiver {
  /** http://127.0.0.1:<port>/hooks (or the `host` given). */
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** ok: 204; fail: 500; hang: never answers; redirect: 302 to the cloud metadata address; slow: 204 after `slowMs`. */
  mode: ReceiverMode;
  slowMs: number;
  close(): Promise<void>;
}

/**
 * A local receiver of webhooks (Standard Webhooks): records each POST's headers and raw body and
 * answers as `mode` says. Verification is the test's job, as it is a receiver's.
 */
export async function startWebhookReceiver(host = "127.0.0.1"): Promise<FakeWebhookReceiver> {
  const state: FakeWebhookReceiver = {
    url: "",
    port: 0,
    received: [],
    mode: "ok",
    slowMs: 200,
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value[0] : value;
      state.received.push({ headers, body: Buffer.concat(chunks).toString("utf8") });
      switch (state.mode) {
        case "ok":
          res.writeHead(204).end();
          return;
        case "fail":
          res.writeHead(500, { "content-type": "text/plain" }).end("erro interno do receptor");
          return;
        case "redirect":
          res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
          return;
        case "slow":
          setTimeout(() => res.writeHead(204).end(), state.slowMs);
          return;
        case "hang":
          return;
      }
    });
  });
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  state.port = port;
  state.url = `http://${host.includes(":") ? `[${host}]` : host}:${port}/hooks`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}
