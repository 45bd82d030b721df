/**
 * Where the signer's copy of the sealed PDF goes, as the signing page says it (decisions 045 and
 * 047): the page names the masked address on record; with none on record the copy goes to the
 * typed address, which the page asks to be typed twice — and the server refuses two that differ.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGNING_MESSAGES } from "../../src/shared/signing-rules.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { signAsPatient, signableDocument, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let versionId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  ({ versionId } = await signableDocument(ctx.app, clinic));
}, 60_000);
afterAll(async () => ctx?.close());

async function sentLink(
  email: string | null,
): Promise<{ token: string; patient: Awaited<ReturnType<typeof signableDocument>>["patient"] }> {
  const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId, email });
  const sent = await ctx.app.inject({
    method: "POST",
    url: `/api/documents/${documentId}/send`,
    headers: { cookie: clinic.cookie },
    payload: {},
  });
  expect(sent.statusCode, sent.body).toBe(200);
  return { token: tokenOf(sent.json().link), patient };
}

describe("the signer's copy address on the signing page (decisions 045, 047)", () => {
  it("names the address on record, masked", async () => {
    const { token, patient } = await sentLink("ana.copia@exemplo.com.br");
    const page = (await ctx.app.inject({ method: "GET", url: `/api/public/sign/${token}` })).json();
    expect(page.copia_para).toBe("an***@exemplo.com.br");
    // With an address on record, no confirmation is needed: the copy does not go to the typed one.
    const signed = await signAsPatient(ctx.app, ctx.database, token, patient, { email: "outro@exemplo.com.br" });
    expect(signed.response.statusCode, signed.response.body).toBe(200);
  });

  it("with none on record: null, and the typed address must be typed the same twice", async () => {
    const { token, patient } = await sentLink(null);
    const page = (await ctx.app.inject({ method: "GET", url: `/api/public/sign/${token}` })).json();
    expect(page.copia_para).toBeNull();

    const mismatch = await signAsPatient(ctx.app, ctx.database, token, patient, {
      email: "ana@exemplo.com.br",
      email_confirmacao: "ana@exenplo.com.br",
    });
    expect(mismatch.response.statusCode).toBe(400);
    expect(mismatch.response.json()).toMatchObject({
      code: "VALIDATION",
      message: SIGNING_MESSAGES.emailConfirmationMismatch,
      issues: [{ path: "email_confirmacao", message: SIGNING_MESSAGES.emailConfirmationMismatch }],
    });
    // Nothing was signed by the refused attempt.
    expect((await ctx.app.inject({ method: "GET", url: `/api/public/sign/${token}` })).json().estado).toBe("pending");

    const signed = await signAsPatient(ctx.app, ctx.database, token, patient, {
      email: "Ana@Exemplo.com.br",
      email_confirmacao: " ana@exemplo.com.br ",
    });
    expect(signed.response.statusCode, signed.response.body).toBe(200);
  });

  it("refuses a malformed confirmation (not text, too long) in Portuguese, never a 500", async () => {
    const { token, patient } = await sentLink(null);
    for (const email_confirmacao of [42, "a".repeat(300), "ana\u0000@exemplo.com.br"]) {
      const response = await signAsPatient(ctx.app, ctx.database, token, patient, {
        email: "ana@exemplo.com.br",
        email_confirmacao,
      });
      expect(response.response.statusCode, String(email_confirmacao).slice(0, 20)).toBe(400);
      expect(response.response.json().code).toBe("VALIDATION");
    }
  });
});
