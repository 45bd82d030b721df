/**
 * Requests Node's HTTP parser refuses, over a real socket (decision 049): answered in Portuguese,
 * as JSON, and the connection closed — never Node's English "Bad Request"/"Client Error".
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let port: number;

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  const address = ctx.app.server.address();
  port = typeof address === "object" && address ? address.port : 0;
}, 60_000);
afterAll(async () => ctx?.close());

/** Sends raw bytes, returns everything the server wrote before closing. */
function raw(request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.setTimeout(5_000, () => socket.destroy(new Error("sem resposta")));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    // Written, not ended: a half-closed client may see its connection dropped before a slow answer
    // (the health check reads the database). The server closes it after answering.
    socket.write(request);
  });
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
const bodyOf = (response: string) =>
  JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4)) as { code: string; message: string };

describe("malformed HTTP", () => {
  it("answers 400 'Requisição HTTP malformada.' to what the parser refuses", async () => {
    const malformed = [
      "GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "POST /api/auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
      "POST /api/auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
      "POST /api/auth/sign-in HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
      "FOO /api/health HTTP/1.1\r\nHost: x\r\n\r\n",
      Buffer.concat([Buffer.from("GET /api/he"), Buffer.from([0x00]), Buffer.from("alth HTTP/1.1\r\nHost: x\r\n\r\n")]),
    ];
    for (const request of malformed) {
      const response = await raw(request);
      const label = request.toString().slice(0, 40);
      expect(statusOf(response), label).toBe(400);
      expect(bodyOf(response), label).toEqual({ code: "BAD_REQUEST", message: "Requisição HTTP malformada." });
      expect(response, label).not.toMatch(/Bad Request"|Client Error/);
    }
  });

  it("answers 431 in Portuguese to headers past the limit", async () => {
    const response = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Grande: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(statusOf(response)).toBe(431);
    expect(bodyOf(response)).toEqual({
      code: "HEADERS_TOO_LARGE",
      message: "Os cabeçalhos ou o endereço da requisição são grandes demais.",
    });
  });

  it("still serves a well-formed request on the same server", async () => {
    const response = await raw("GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(statusOf(response)).toBe(200);
  });
});
