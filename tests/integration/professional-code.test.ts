import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, professionalSigningCodes } from "../../src/db/schema.js";
import { twoClinics } from "../helpers/clinics.js";
import { expectError } from "../helpers/expect-error.js";
import { sealedPdfText } from "../helpers/pdf-text.js";
import { newStaff, type SignedIn } from "../helpers/sessions.js";
import {
  caller,
  latestProfessionalCode,
  professionalParty as partyOf,
  signAsPatient,
  tokenOf,
  unsignedDocument,
} from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * The professional's second factor (decision 042): a code to the e-mail of their own account, then
 * password + code → an advanced signature; password alone → login and password, said so. Only the
 * responsible professional, only their clinic's documents, a code for this document only.
 */
let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-professional-code-"));

beforeAll(async () => {
  ctx = await createTestApp();
  ({ clinic, other, versionId } = await twoClinics(ctx));
});
afterAll(async () => {
  await ctx?.close();
});

const as = (who: SignedIn, method: "GET" | "POST", url: string, payload?: unknown) =>
  caller(ctx.app, who)(method, url, payload);
const askCode = (id: string, who = clinic, payload: unknown = {}) =>
  as(who, "POST", `/api/documents/${id}/professional-signature/code`, payload);
const signWith = (id: string, body: Record<string, unknown>, who = clinic) =>
  as(who, "POST", `/api/documents/${id}/professional-signature`, { senha: who.password, ...body });

/** A draft the professional has NOT signed yet, with its patient. */
const draft = () => unsignedDocument(ctx.app, clinic, { versionId });
/** The newest professional code e-mailed to the clinic's owner (the outbox, as they read their mail). */
const latestCode = () => latestProfessionalCode(ctx, clinic.email);
const professionalParty = (id: string) => partyOf(ctx.database, id);

describe("the professional's code (decision 042)", () => {
  it("goes to the e-mail of their own account, hashed; with it the signature is advanced, and the final PDF says so", async () => {
    const { id, patient } = await draft();
    const sent = await askCode(id);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({
      enviado: true,
      canal: "email",
      destino: expect.stringMatching(/\*\*\*@teste\.consentir\.test$/),
    });
    const code = await latestCode();
    const [stored] = await ctx.database.db
      .select()
      .from(professionalSigningCodes)
      .where(eq(professionalSigningCodes.contrato_id, id));
    expect(stored!.code_hash).not.toContain(code);
    expect(stored!.profile_id).toBe(clinic.profileId);

    const signed = await signWith(id, { codigo: code });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ nivel_assinatura: "avancada", metodo_assinatura: "eletronica" });
    const party = await professionalParty(id);
    expect(party).toMatchObject({ nivel_assinatura: "avancada", otp_verificado: true, tipo_assinatura: "senha" });
    const [consumed] = await ctx.database.db
      .select()
      .from(professionalSigningCodes)
      .where(eq(professionalSigningCodes.contrato_id, id));
    expect(consumed!.consumed_at).not.toBeNull();
    const events = await ctx.database.db.select().from(auditEvents).where(eq(auditEvents.entity_id, id));
    // No SMTP here: the trail does not say the code was sent.
    expect(events.map((e) => e.action)).toContain("document.professional_code_outbox");
    expect(events.find((e) => e.action === "document.party_signed")?.data).toMatchObject({
      nivel: "avancada",
      otp_verificado: true,
      codigo_canal: "caixa_de_saida",
    });

    // Sent, signed by the patient, sealed: the registry calls the professional's signature advanced (on a development server).
    const link = await as(clinic, "POST", `/api/documents/${id}/send`, {});
    expect(link.statusCode, link.body).toBe(200);
    expect((await signAsPatient(ctx.app, ctx.database, tokenOf(link.json().link), patient)).response.statusCode).toBe(
      200,
    );
    const text = await sealedPdfText(ctx.app, clinic, id, path.join(scratch, "profissional-avancada.pdf"));
    expect(text).toContain("Assinatura eletrônica simples do profissional (servidor de desenvolvimento)");
    expect(text).not.toContain("sem segundo fator");
    // The list badges: advanced, not "login e senha".
    const listed = await as(clinic, "GET", `/api/documents/${id}/signatures`);
    expect(
      (listed.json().items as { papel: string; otp_verificado: boolean }[]).find((p) => p.papel === "profissional")
        ?.otp_verificado,
    ).toBe(true);
  });

  it("without the code, the password alone is recorded as login and password (simple)", async () => {
    const { id } = await draft();
    const signed = await signWith(id, {});
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().nivel_assinatura).toBe("simples");
    expect(await professionalParty(id)).toMatchObject({ nivel_assinatura: "simples", otp_verificado: false });
  });

  it("a wrong code is refused, counted and recorded; the right one still works after it", async () => {
    const { id } = await draft();
    expect((await askCode(id)).statusCode).toBe(200);
    const code = await latestCode();
    const wrong = await signWith(id, { codigo: code === "000000" ? "111111" : "000000" });
    expectError(wrong, "SIGNING_OTP_INVALID");
    expect(await professionalParty(id)).toBeUndefined();
    const [row] = await ctx.database.db
      .select()
      .from(professionalSigningCodes)
      .where(eq(professionalSigningCodes.contrato_id, id));
    expect(row!.attempts).toBe(1);
    const failures = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, id), eq(auditEvents.action, "document.sign_attempt_failed")));
    expect(failures.map((e) => e.data)).toEqual([{ motivo: "codigo" }]);
    // A wrong password with the right code: refused for the password, the code untouched.
    expectError(
      await as(clinic, "POST", `/api/documents/${id}/professional-signature`, { senha: "nao-e-a-senha", codigo: code }),
      "WRONG_PASSWORD",
    );
    expect((await signWith(id, { codigo: code })).statusCode).toBe(200);
  });

  it("a code is this document's only, and a newer code ends the older one", async () => {
    const a = await draft();
    const b = await draft();
    expect((await askCode(a.id)).statusCode).toBe(200);
    const codeA = await latestCode();
    expectError(await signWith(b.id, { codigo: codeA }), "SIGNING_OTP_INVALID");
    expect((await askCode(a.id)).statusCode).toBe(200);
    const newer = await latestCode();
    if (newer !== codeA) expectError(await signWith(a.id, { codigo: codeA }), "SIGNING_OTP_INVALID");
    expect((await signWith(a.id, { codigo: newer })).statusCode).toBe(200);
  });

  it("only the responsible professional, of their own clinic, while the document can be signed", async () => {
    const { id } = await draft();
    // Another clinic's owner: the document does not exist for them.
    expectError(await askCode(id, other), "NOT_FOUND");
    expectError(await signWith(id, { codigo: "123456" }, other), "NOT_FOUND");
    // A colleague of the same clinic who is not the responsible professional.
    const colleague = await newStaff(ctx.app, ctx.database, clinic.tenantId, "profissional");
    expectError(await askCode(id, colleague), "PROFESSIONAL_NOT_RESPONSIBLE");
    // Already signed: no code for it.
    expect((await signWith(id, {})).statusCode).toBe(200);
    expectError(await askCode(id), "PROFESSIONAL_ALREADY_SIGNED");
    // Not logged in.
    expect(
      (await ctx.app.inject({ method: "POST", url: `/api/documents/${id}/professional-signature/code`, payload: {} }))
        .statusCode,
    ).toBe(401);
  });

  it("refuses malformed input in Portuguese", async () => {
    const { id } = await draft();
    for (const codigo of ["12345", "12a456", "1234567", "12\u0000456"]) {
      const response = await signWith(id, { codigo });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().code).toBe("VALIDATION");
      expect(response.json().message).toMatch(/código|caractere/i);
    }
    expectError(await askCode(id, clinic, { canal: "sms" }), "VALIDATION");
    expectError(await askCode("nao-e-um-id"), "VALIDATION");
    expect(await professionalParty(id)).toBeUndefined();
  });

  it("five codes a quarter hour per document, then 429 with Retry-After", async () => {
    const { id } = await draft();
    for (let i = 0; i < 5; i++) expect((await askCode(id)).statusCode).toBe(200);
    const refused = await askCode(id);
    expectError(refused, "RATE_LIMITED");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("a server that sends no e-mail says there is no code, and the password alone still signs", async () => {
    const production = await createTestApp({
      database: ctx.database,
      env: { NODE_ENV: "production", PUBLIC_URL: "https://consentir.exemplo.com.br", TSA_URL: "none" },
    });
    try {
      const { id } = await draft();
      const response = await production.app.inject({
        method: "POST",
        url: `/api/documents/${id}/professional-signature/code`,
        headers: { cookie: clinic.cookie },
        payload: {},
      });
      expectError(response, "PROFESSIONAL_CODE_UNAVAILABLE");
    } finally {
      await production.close();
    }
  });
});
