import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "../../src/db/schema.js";
import { twoClinics } from "../helpers/clinics.js";
import { expectError } from "../helpers/expect-error.js";
import { sealedPdfText } from "../helpers/pdf-text.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import {
  caller,
  latestProfessionalCode,
  professionalParty as partyOf,
  publishedTemplateVersion,
  signAsPatient,
  tokenOf,
  unsignedDocument,
} from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * The clinic's setting "Exigir o código do profissional" (decision 078): on, the password alone is
 * refused (409, pt-BR) and password + code signs; off, the password alone signs and the evidence
 * says it was login and password because the clinic does not require the code. Never set, it
 * follows SMTP: on where e-mail really leaves the server.
 */
let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-professional-code-required-"));

beforeAll(async () => {
  ctx = await createTestApp();
  ({ clinic, other, versionId } = await twoClinics(ctx));
});
afterAll(async () => {
  await ctx?.close();
});

type Ctx = TestContext;
const as = (who: SignedIn, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
  caller(ctx.app, who)(method, url, payload);
const setCodeRequired = async (value: boolean, who = clinic, on: Ctx = ctx) => {
  const saved = await caller(on.app, who)("PUT", "/api/settings/signing", { codigo_profissional: value });
  expect(saved.statusCode, saved.body).toBe(200);
  expect(saved.json()).toMatchObject({ codigo_profissional: value });
};
const signWith = (id: string, body: Record<string, unknown>, who = clinic, on: Ctx = ctx) =>
  caller(on.app, who)("POST", `/api/documents/${id}/professional-signature`, { senha: who.password, ...body });

const draft = (who = clinic, version = versionId, on: Ctx = ctx) =>
  unsignedDocument(on.app, who, { versionId: version });

async function codeFor(id: string, who = clinic, on: Ctx = ctx): Promise<string> {
  const sent = await caller(on.app, who)("POST", `/api/documents/${id}/professional-signature/code`, {});
  expect(sent.statusCode, sent.body).toBe(200);
  return latestProfessionalCode(on, who.email);
}

const professionalParty = (id: string, on: Ctx = ctx) => partyOf(on.database, id);

describe("the clinic requires the professional's code (decision 078)", () => {
  it("on: the password alone is refused with a pt-BR 409 and nothing is signed; with the code it signs, advanced", async () => {
    await setCodeRequired(true);
    const { id } = await draft();
    const refused = await signWith(id, {});
    expectError(refused, "PROFESSIONAL_CODE_REQUIRED");
    expect(refused.json().message).toContain("A clínica exige o código");
    expect(await professionalParty(id)).toBeUndefined();
    // Refused before the password is checked: a wrong password is not counted either.
    expectError(await signWith(id, { senha: "outra-senha-qualquer" }), "PROFESSIONAL_CODE_REQUIRED");
    const failures = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, id), eq(auditEvents.action, "document.sign_attempt_failed")));
    expect(failures).toHaveLength(0);

    const signed = await signWith(id, { codigo: await codeFor(id) });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ nivel_assinatura: "avancada" });
    expect(await professionalParty(id)).toMatchObject({ nivel_assinatura: "avancada", otp_verificado: true });
  });

  it("on: the batch signature without the code is refused as a whole", async () => {
    await setCodeRequired(true);
    const a = await draft();
    const b = await draft();
    const batch = await as(clinic, "POST", "/api/documents/professional-signatures", {
      ids: [a.id, b.id],
      senha: clinic.password,
    });
    expectError(batch, "PROFESSIONAL_CODE_REQUIRED");
    expect(await professionalParty(a.id)).toBeUndefined();
    expect(await professionalParty(b.id)).toBeUndefined();
  });

  it("off: the password alone signs, and the trail and the sealed PDF say it was login and password, not required", async () => {
    await setCodeRequired(false);
    const { id, patient } = await draft();
    const signed = await signWith(id, {});
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ nivel_assinatura: "simples" });
    expect(await professionalParty(id)).toMatchObject({ nivel_assinatura: "simples", otp_verificado: false });
    const [event] = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, id), eq(auditEvents.action, "document.party_signed")));
    expect(event?.data).toMatchObject({
      nivel: "simples",
      otp_verificado: false,
      motivo_simples: "A clínica não exige o código do profissional.",
    });

    const link = await as(clinic, "POST", `/api/documents/${id}/send`, {});
    expect(link.statusCode, link.body).toBe(200);
    expect((await signAsPatient(ctx.app, ctx.database, tokenOf(link.json().link), patient)).response.statusCode).toBe(
      200,
    );
    const text = await sealedPdfText(ctx.app, clinic, id, path.join(scratch, "profissional-sem-codigo.pdf"));
    expect(text).toContain("(sem segundo fator: A clínica não exige o código do profissional)");
  });

  it("off: a code typed anyway still makes the signature advanced", async () => {
    await setCodeRequired(false);
    const { id } = await draft();
    const signed = await signWith(id, { codigo: await codeFor(id) });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ nivel_assinatura: "avancada" });
  });

  it("another clinic's document is not found, whatever the setting; a malformed body is a pt-BR 400", async () => {
    const { id } = await draft();
    for (const value of [true, false]) {
      await setCodeRequired(value, other);
      expectError(await signWith(id, {}, other), "NOT_FOUND");
      expectError(await signWith(id, { codigo: "123456" }, other), "NOT_FOUND");
    }
    await setCodeRequired(true);
    const noPassword = await as(clinic, "POST", `/api/documents/${id}/professional-signature`, { codigo: "123456" });
    expectError(noPassword, "VALIDATION");
    expect(noPassword.body).toContain("Digite sua senha");
    expectError(await signWith(id, { codigo: "12ab56" }), "VALIDATION");
    expectError(await as(clinic, "POST", `/api/documents/not-a-uuid/professional-signature`, {}), "VALIDATION");
    expect(await professionalParty(id)).toBeUndefined();
  });

  it("is the managers' setting, audited, validated in pt-BR; the other clinic's is its own", async () => {
    const fresh = await newClinic(ctx.app);
    // No SMTP on this server: off until the clinic turns it on.
    expect((await as(fresh, "GET", "/api/settings/signing")).json()).toMatchObject({ codigo_profissional: false });
    const professional = await newStaff(ctx.app, ctx.database, fresh.tenantId, "profissional");
    expectError(await as(professional, "PUT", "/api/settings/signing", { codigo_profissional: true }), "FORBIDDEN");
    const admin = await newStaff(ctx.app, ctx.database, fresh.tenantId, "admin");
    await setCodeRequired(true, admin);
    // Saving another option keeps it, and saving it keeps the others.
    expect((await as(fresh, "PUT", "/api/settings/signing", { codigo_email: false })).json()).toMatchObject({
      codigo_email: false,
      codigo_profissional: true,
    });
    const bad = await as(fresh, "PUT", "/api/settings/signing", { codigo_profissional: "sim" });
    expectError(bad, "VALIDATION");
    expect(bad.body).toContain("Informe se o código do profissional é exigido");
    // Each save is its own event, naming only what it changed (no order asked: both are checked).
    const events = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenant_id, fresh.tenantId), eq(auditEvents.action, "settings.signing_updated")));
    expect(events.map((event) => event.data)).toHaveLength(2);
    expect(events.map((event) => event.data)).toEqual(
      expect.arrayContaining([
        { codigo_profissional: { antes: false, depois: true } },
        { codigo_email: { antes: true, depois: false } },
      ]),
    );
  });
});

describe("never set, the professional's code follows SMTP (decision 078)", () => {
  let smtpCtx: TestContext;
  beforeAll(async () => {
    // SMTP configured; no worker round runs here, so nothing is really sent.
    smtpCtx = await createTestApp({ env: { SMTP_URL: "smtp://127.0.0.1:2525" } });
  });
  afterAll(async () => {
    await smtpCtx?.close();
  });

  it("is on where e-mail leaves the server: the password alone is refused, the code signs; off again, the password alone signs", async () => {
    const owner = await newClinic(smtpCtx.app);
    const version = await publishedTemplateVersion(smtpCtx.app, owner);
    expect((await caller(smtpCtx.app, owner)("GET", "/api/settings/signing")).json()).toMatchObject({
      codigo_profissional: true,
      email_configurado: true,
    });
    const { id } = await draft(owner, version, smtpCtx);
    expectError(await signWith(id, {}, owner, smtpCtx), "PROFESSIONAL_CODE_REQUIRED");
    const signed = await signWith(id, { codigo: await codeFor(id, owner, smtpCtx) }, owner, smtpCtx);
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ nivel_assinatura: "avancada" });

    await setCodeRequired(false, owner, smtpCtx);
    const second = await draft(owner, version, smtpCtx);
    const simple = await signWith(second.id, {}, owner, smtpCtx);
    expect(simple.statusCode, simple.body).toBe(200);
    expect(simple.json()).toMatchObject({ nivel_assinatura: "simples" });
  });
});
