import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contratoPartes } from "../../src/db/schema.js";
import { loadEnv } from "../../src/server/env.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion, signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * The signer's source port in the evidence (decision 041): behind the proxy (TRUST_PROXY), the
 * socket's port is the proxy's and is never recorded as the signer's; the port the proxy passes in
 * CLIENT_PORT_HEADER is, when one is configured.
 */
let proxied: TestContext;
let withHeader: TestContext;
let clinic: SignedIn;
let versionId: string;

const PROXY = "10.0.0.2";
const SIGNER = "203.0.113.50";

beforeAll(async () => {
  proxied = await createTestApp({ env: { TRUST_PROXY: "true" } });
  withHeader = await createTestApp({
    database: proxied.database,
    env: { TRUST_PROXY: "true", CLIENT_PORT_HEADER: "X-Client-Port" },
  });
  clinic = await newClinic(proxied.app);
  versionId = await publishedTemplateVersion(proxied.app, clinic);
});
afterAll(async () => {
  await withHeader?.close();
  await proxied?.close();
});

async function signThrough(ctx: TestContext, headers: Record<string, string>) {
  const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
  const sent = await ctx.app.inject({
    method: "POST",
    url: `/api/documents/${documentId}/send`,
    payload: {},
    headers: { cookie: clinic.cookie },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const signed = await signAsPatient(
    ctx.app,
    ctx.database,
    tokenOf(sent.json().link),
    patient,
    {},
    { remoteAddress: PROXY, headers },
  );
  expect(signed.response.statusCode, signed.response.body).toBe(200);
  const [party] = await ctx.database.db
    .select({ ip: contratoPartes.ip_address, port: contratoPartes.porta_origem })
    .from(contratoPartes)
    .where(and(eq(contratoPartes.contrato_id, documentId), eq(contratoPartes.papel, "paciente")));
  return party!;
}

describe("the signer's source port behind a proxy", () => {
  it("records the forwarded address and no port when the proxy does not pass one", async () => {
    expect(await signThrough(proxied, { "x-forwarded-for": SIGNER, "x-client-port": "40123" })).toEqual({
      ip: SIGNER,
      port: null,
    });
  });

  it("records the port the proxy passes in CLIENT_PORT_HEADER, and none when it is not a port", async () => {
    expect(await signThrough(withHeader, { "x-forwarded-for": SIGNER, "x-client-port": "40123" })).toEqual({
      ip: SIGNER,
      port: 40123,
    });
    expect(await signThrough(withHeader, { "x-forwarded-for": SIGNER, "x-client-port": "99999" })).toEqual({
      ip: SIGNER,
      port: null,
    });
  });

  it("refuses a CLIENT_PORT_HEADER that is not a header name, in Portuguese", () => {
    expect(() => loadEnv({ CLIENT_PORT_HEADER: "X Client: Port" })).toThrow(
      /CLIENT_PORT_HEADER: use o nome de um cabeçalho HTTP/,
    );
  });
});
