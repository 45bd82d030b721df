import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contratoPartes, emailOutbox } from "../../src/db/schema.js";
import { ERRORS } from "../../src/shared/errors.js";
import { OTP_MAX_ATTEMPTS } from "../../src/shared/schemas/signing.js";
import { latestMail, outboxMails } from "../helpers/outbox.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion, signableDocument, signingPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * The attempt limits of the two codes that guard something (decision 042, signing-codes.ts): the
 * patient's code unmasks the whole document at verify-code, the professional's makes their
 * signature advanced. After OTP_MAX_ATTEMPTS wrong tries the code is dead, even when the right one
 * comes next; a new code must be asked.
 */
let ctx: TestContext;
let clinic: SignedIn;
let versionId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
});
afterAll(async () => {
  await ctx?.close();
});

const staff = (method: "GET" | "POST", url: string, payload?: object) =>
  ctx.app.inject({ method, url, payload, headers: { cookie: clinic.cookie } });
const publicCall = (method: "GET" | "POST", url: string, payload?: object) => ctx.app.inject({ method, url, payload });
const expectError = (response: { statusCode: number; body: string }, code: keyof typeof ERRORS) => {
  expect(response.statusCode, response.body).toBe(ERRORS[code].status);
  expect(JSON.parse(response.body)).toMatchObject({ code });
};
const otherThan = (code: string) => (code === "000000" ? "111111" : "000000");

async function lastCodeTo(email: string): Promise<string> {
  const code = (await outboxMails(ctx, email)).at(-1)?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code e-mailed to ${email}`);
  return code;
}

describe("the patient's code at verify-code", () => {
  it(`dies after ${OTP_MAX_ATTEMPTS} wrong tries: the right code then unmasks nothing; a new code works`, async () => {
    const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
    const sent = await staff("POST", `/api/documents/${documentId}/send`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    const token = tokenOf(sent.json().link);
    expect((await publicCall("POST", `/api/public/sign/${token}/code`)).statusCode).toBe(200);
    const code = await lastCodeTo(patient.email!);

    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) {
      expectError(
        await publicCall("POST", `/api/public/sign/${token}/verify-code`, { codigo: otherThan(code) }),
        "SIGNING_OTP_INVALID",
      );
    }
    expectError(
      await publicCall("POST", `/api/public/sign/${token}/verify-code`, { codigo: code }),
      "SIGNING_OTP_INVALID",
    );
    const page = await publicCall("GET", `/api/public/sign/${token}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().codigo_verificado).toBe(false);

    expect((await publicCall("POST", `/api/public/sign/${token}/code`)).statusCode).toBe(200);
    const fresh = await lastCodeTo(patient.email!);
    const verified = await publicCall("POST", `/api/public/sign/${token}/verify-code`, { codigo: fresh });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().codigo_verificado).toBe(true);
  });
});

describe("the professional's code", () => {
  it(`dies after ${OTP_MAX_ATTEMPTS} wrong tries: the right code then signs nothing; a new code works`, async () => {
    const patient = await signingPatient(ctx.app, clinic);
    const created = await staff("POST", "/api/documents", {
      paciente_id: patient.id,
      template_version_id: versionId,
      titulo: "TCLE - Blefaroplastia",
      procedimento: "Blefaroplastia superior",
      medico_responsavel_id: clinic.profileId,
      variaveis: { riscos_personalizados: "Hematoma" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const ask = () => staff("POST", `/api/documents/${id}/professional-signature/code`, {});
    const sign = (codigo: string) =>
      staff("POST", `/api/documents/${id}/professional-signature`, { senha: clinic.password, codigo });
    const professionalCode = async () => {
      const mail = await latestMail(
        ctx,
        clinic.email,
        like(emailOutbox.subject, "%código de assinatura do profissional%"),
      );
      const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
      if (!code) throw new Error("no professional code in the outbox");
      return code;
    };

    expect((await ask()).statusCode).toBe(200);
    const code = await professionalCode();
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) expectError(await sign(otherThan(code)), "SIGNING_OTP_INVALID");
    expectError(await sign(code), "SIGNING_OTP_INVALID");
    const parties = await ctx.database.db
      .select()
      .from(contratoPartes)
      .where(and(eq(contratoPartes.contrato_id, id), eq(contratoPartes.papel, "profissional")));
    expect(parties).toEqual([]);

    expect((await ask()).statusCode).toBe(200);
    const signed = await sign(await professionalCode());
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ nivel_assinatura: "avancada" });
  });
});
