import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contratos, signingTokens } from "../../src/db/schema.js";
import { expireDocuments } from "../../src/server/jobs/expire-documents.js";
import { ERRORS } from "../../src/shared/errors.js";
import { DOCUMENT_VALIDITY_DAYS, shortDocumentId } from "../../src/shared/schemas/document.js";
import { CONTACT_MISSING_MESSAGE } from "../../src/shared/send-readiness.js";
import { validCpf } from "../helpers/factories.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, publishedTemplateVersion, signableDocument, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * sending without traps: GET /api/documents/:id/send-check says what Enviar/Reenviar
 * would meet, by the same rule the server applies; an expired document is resent (new deadline)
 * or cancelled; the list finds a document by its short id "#xxxxxxxx".
 */
let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
let otherVersionId: string;

type Method = "GET" | "POST" | "PUT";
const staff = (who: SignedIn, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const expectError = (response: { statusCode: number; json(): any; body: string }, code: keyof typeof ERRORS) => {
  expect(response.statusCode, response.body).toBe(ERRORS[code].status);
  const message = code === "NOT_FOUND" ? "Documento não encontrado" : ERRORS[code].message;
  expect(response.json()).toMatchObject({ code, ...(code === "VALIDATION" ? {} : { message }) });
};
const documentRow = async (id: string) =>
  (await ctx.database.db.select().from(contratos).where(eq(contratos.id, id)))[0]!;
const DAY = 24 * 60 * 60 * 1000;

/** A draft for a patient registered with only these fields (name always). */
async function draftFor(
  who: SignedIn,
  fields: Record<string, string>,
  version = versionId,
): Promise<{ documentId: string; patientId: string }> {
  const patient = await staff(who, "POST", "/api/patients", { nome: "Rui Barbosa Lima", ...fields });
  expect(patient.statusCode, patient.body).toBe(201);
  const patientId = patient.json().id as string;
  if (fields.cpf) return { documentId: await draftDocument(ctx.app, who, version, patientId), patientId };
  // Without a CPF the template's {{cpf_paciente}} stays empty: created anyway, as the screen allows.
  const created = await staff(who, "POST", "/api/documents", {
    paciente_id: patientId,
    template_version_id: version,
    titulo: "TCLE sem CPF",
    medico_responsavel_id: who.profileId,
    variaveis: { riscos_personalizados: "Hematoma" },
    permitir_pendencias: true,
  });
  expect(created.statusCode, created.body).toBe(201);
  const documentId = created.json().id as string;
  expect(
    (await staff(who, "POST", `/api/documents/${documentId}/professional-signature`, { senha: who.password }))
      .statusCode,
  ).toBe(200);
  return { documentId, patientId };
}

/** A sent document whose deadline passed and the sweep wrote "expired". */
async function expiredDocument(who: SignedIn = clinic, opened = false): Promise<{ documentId: string; token: string }> {
  const { documentId } = await signableDocument(ctx.app, who, {
    versionId: who === other ? otherVersionId : versionId,
  });
  const sent = await staff(who, "POST", `/api/documents/${documentId}/send`, {});
  expect(sent.statusCode, sent.body).toBe(200);
  const token = tokenOf(sent.json().link as string);
  if (opened) expect((await ctx.app.inject({ method: "GET", url: `/api/public/sign/${token}` })).statusCode).toBe(200);
  await ctx.database.db
    .update(contratos)
    .set({ expiracao_at: new Date(Date.now() - 60_000) })
    .where(eq(contratos.id, documentId));
  await expireDocuments(ctx.database.db);
  expect((await documentRow(documentId)).status).toBe("expired");
  return { documentId, token };
}

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
  otherVersionId = await publishedTemplateVersion(ctx.app, other);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe("send-check", () => {
  it("finds nothing in the way of a patient with CPF and e-mail", async () => {
    const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
    const response = await staff(clinic, "GET", `/api/documents/${documentId}/send-check`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      modo: "send",
      paciente_id: patient.id,
      problemas: [],
      email_possivel: true,
      celular_possivel: false,
      novo_prazo: false,
      a_rogo: false,
    });
  });

  it("names the missing CPF (blocking, the server's own message) and the missing contact (warning); sending then fails with the same message", async () => {
    const { documentId, patientId } = await draftFor(clinic, {});
    const check = (await staff(clinic, "GET", `/api/documents/${documentId}/send-check`)).json();
    expect(check).toEqual({
      modo: "send",
      paciente_id: patientId,
      problemas: [
        { codigo: "PATIENT_CPF_MISSING", mensagem: ERRORS.PATIENT_CPF_MISSING.message, bloqueia: true },
        { codigo: "PATIENT_CONTACT_MISSING", mensagem: CONTACT_MISSING_MESSAGE, bloqueia: false },
      ],
      email_possivel: false,
      celular_possivel: false,
      novo_prazo: false,
      a_rogo: false,
    });
    expectError(await staff(clinic, "POST", `/api/documents/${documentId}/send`, {}), "PATIENT_CPF_MISSING");
  });

  it("a phone is a contact: no warning, but no e-mail either — and e-mailing is refused as before", async () => {
    const cpf = validCpf();
    const { documentId } = await draftFor(clinic, { cpf, telefone: "(11) 98765-4321" });
    const check = (await staff(clinic, "GET", `/api/documents/${documentId}/send-check`)).json();
    expect(check).toMatchObject({ problemas: [], email_possivel: false, celular_possivel: true });
    expectError(
      await staff(clinic, "POST", `/api/documents/${documentId}/send`, { email: true }),
      "PATIENT_EMAIL_MISSING",
    );
    expect((await staff(clinic, "POST", `/api/documents/${documentId}/send`, { email: false })).statusCode).toBe(200);
  });

  it("asks for a minor's guardian, as sending does", async () => {
    const { documentId } = await draftFor(clinic, {
      cpf: validCpf(),
      email: "menor@exemplo.com.br",
      data_nascimento: "2015-03-01",
    });
    const check = (await staff(clinic, "GET", `/api/documents/${documentId}/send-check`)).json();
    expect(check.problemas).toEqual([
      { codigo: "GUARDIAN_MISSING", mensagem: ERRORS.GUARDIAN_MISSING.message, bloqueia: true },
    ]);
    expectError(await staff(clinic, "POST", `/api/documents/${documentId}/send`, {}), "GUARDIAN_MISSING");
  });

  it("says when the professional has not signed the declaration yet (the clinic chose 'antes do envio', decision 050)", async () => {
    expect(
      (await staff(clinic, "PUT", "/api/settings/signing", { ordem_profissional: "antes_do_envio" })).statusCode,
    ).toBe(200);
    const patient = await staff(clinic, "POST", "/api/patients", {
      nome: "Paula Prado",
      cpf: validCpf(),
      email: "paula@exemplo.com.br",
    });
    const created = await staff(clinic, "POST", "/api/documents", {
      paciente_id: patient.json().id,
      template_version_id: versionId,
      titulo: "TCLE",
      procedimento: "Blefaroplastia superior",
      data_procedimento: "2026-12-03",
      medico_responsavel_id: clinic.profileId,
      variaveis: { riscos_personalizados: "Hematoma" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const check = (await staff(clinic, "GET", `/api/documents/${id}/send-check`)).json();
    expect(check.problemas).toEqual([
      {
        codigo: "PROFESSIONAL_SIGNATURE_MISSING",
        mensagem: ERRORS.PROFESSIONAL_SIGNATURE_MISSING.message,
        bloqueia: true,
      },
    ]);
    expectError(await staff(clinic, "POST", `/api/documents/${id}/send`, {}), "PROFESSIONAL_SIGNATURE_MISSING");
    // With the default ("em qualquer ordem") the same draft has nothing in the way.
    expect(
      (await staff(clinic, "PUT", "/api/settings/signing", { ordem_profissional: "qualquer_ordem" })).statusCode,
    ).toBe(200);
    expect((await staff(clinic, "GET", `/api/documents/${id}/send-check`)).json().problemas).toEqual([]);
  });

  it("offers Reenviar with a new deadline on an expired document, nothing on a cancelled one", async () => {
    const { documentId } = await expiredDocument();
    expect((await staff(clinic, "GET", `/api/documents/${documentId}/send-check`)).json()).toMatchObject({
      modo: "resend",
      problemas: [],
      novo_prazo: true,
    });
    expect(
      (await staff(clinic, "POST", `/api/documents/${documentId}/cancel`, { motivo: "Paciente desistiu" })).statusCode,
    ).toBe(204);
    const cancelled = (await staff(clinic, "GET", `/api/documents/${documentId}/send-check`)).json();
    expect(cancelled.modo).toBeNull();
    expect(cancelled.problemas[0]).toMatchObject({ codigo: "DOCUMENT_NOT_RESENDABLE", bloqueia: true });
  });

  it("answers 404 for another clinic's document and 400 for a malformed id", async () => {
    const theirs = await signableDocument(ctx.app, other, { versionId: otherVersionId });
    expectError(await staff(clinic, "GET", `/api/documents/${theirs.documentId}/send-check`), "NOT_FOUND");
    expectError(await staff(clinic, "GET", "/api/documents/nao-e-um-id/send-check"), "VALIDATION");
    expect(
      (await ctx.app.inject({ method: "GET", url: `/api/documents/${theirs.documentId}/send-check` })).statusCode,
    ).toBe(401);
  });
});

describe("an expired document", () => {
  it("is resent with a new deadline: the old link dies, the new one opens, the status goes back to viewed when it had been opened", async () => {
    const { documentId, token } = await expiredDocument(clinic, true);
    const before = Date.now();
    const response = await staff(clinic, "POST", `/api/documents/${documentId}/resend`, { email: true });
    expect(response.statusCode, response.body).toBe(200);
    const row = await documentRow(documentId);
    expect(row.status).toBe("viewed");
    expect(row.expiracao_at.getTime()).toBeGreaterThanOrEqual(before + DOCUMENT_VALIDITY_DAYS * DAY - 1000);
    expect(new Date(response.json().expires_at as string).getTime()).toBe(row.expiracao_at.getTime());
    expect(response.json().email_enviado).toBe(true);
    expect((await ctx.app.inject({ method: "GET", url: `/api/public/sign/${token}` })).statusCode).toBe(410);
    const fresh = await ctx.app.inject({
      method: "GET",
      url: `/api/public/sign/${tokenOf(response.json().link as string)}`,
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const listed = (
      await staff(clinic, "GET", `/api/documents?q=${encodeURIComponent(shortDocumentId(documentId))}`)
    ).json();
    expect(listed.items.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual([[documentId, "viewed"]]);
  });

  it("expired by the clock only (before the sweep) is resent as sent, and its witnesses' links live again until the new deadline", async () => {
    const { documentId } = await signableDocument(ctx.app, clinic, { versionId });
    const cpf = validCpf();
    const witness = await staff(clinic, "POST", `/api/documents/${documentId}/witnesses`, {
      nome: "Tereza Testemunha",
      cpf,
      email: `t.${cpf}@exemplo.com.br`,
    });
    expect(witness.statusCode, witness.body).toBe(201);
    const sent = await staff(clinic, "POST", `/api/documents/${documentId}/send`, {});
    const witnessToken = tokenOf(sent.json().testemunhas[0].link as string);
    const past = new Date(Date.now() - 60_000);
    await ctx.database.db.update(contratos).set({ expiracao_at: past }).where(eq(contratos.id, documentId));
    await ctx.database.db
      .update(signingTokens)
      .set({ expires_at: past })
      .where(eq(signingTokens.contrato_id, documentId));
    expect((await ctx.app.inject({ method: "GET", url: `/api/public/sign/${witnessToken}` })).statusCode).toBe(410);

    const response = await staff(clinic, "POST", `/api/documents/${documentId}/resend`, {});
    expect(response.statusCode, response.body).toBe(200);
    const row = await documentRow(documentId);
    expect(row.status).toBe("sent");
    const witnessTokens = await ctx.database.db
      .select()
      .from(signingTokens)
      .where(and(eq(signingTokens.contrato_id, documentId), isNotNull(signingTokens.testemunha_id)));
    expect(witnessTokens.map((t) => t.expires_at.getTime())).toEqual([row.expiracao_at.getTime()]);
    expect((await ctx.app.inject({ method: "GET", url: `/api/public/sign/${witnessToken}` })).statusCode).toBe(200);
  });

  it("is cancelled with a reason", async () => {
    const { documentId } = await expiredDocument();
    expectError(await staff(clinic, "POST", `/api/documents/${documentId}/cancel`, { motivo: 5 }), "VALIDATION");
    expect(
      (
        await staff(clinic, "POST", `/api/documents/${documentId}/cancel`, {
          motivo: "Prazo perdido, paciente desistiu",
        })
      ).statusCode,
    ).toBe(204);
    expect(await documentRow(documentId)).toMatchObject({
      status: "cancelled",
      cancel_reason: "Prazo perdido, paciente desistiu",
    });
    expectError(await staff(clinic, "POST", `/api/documents/${documentId}/resend`, {}), "DOCUMENT_NOT_RESENDABLE");
  });

  it("of another clinic is neither resent nor cancelled; a malformed body is a 400 and changes nothing", async () => {
    const theirs = await expiredDocument(other);
    expectError(await staff(clinic, "POST", `/api/documents/${theirs.documentId}/resend`, {}), "NOT_FOUND");
    expectError(
      await staff(clinic, "POST", `/api/documents/${theirs.documentId}/cancel`, { motivo: "Não é meu" }),
      "NOT_FOUND",
    );
    expectError(
      await staff(other, "POST", `/api/documents/${theirs.documentId}/resend`, { email: "sim" }),
      "VALIDATION",
    );
    expect((await documentRow(theirs.documentId)).status).toBe("expired");
  });

  it("is not resent while its patient lost the CPF (the same rule as sending)", async () => {
    const { documentId } = await expiredDocument();
    const patientId = (await documentRow(documentId)).paciente_id;
    const current = (await staff(clinic, "GET", `/api/patients/${patientId}`)).json();
    const saved = await staff(clinic, "PUT", `/api/patients/${patientId}`, {
      nome: current.nome,
      email: current.email,
      data_nascimento: current.data_nascimento,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expectError(await staff(clinic, "POST", `/api/documents/${documentId}/resend`, {}), "PATIENT_CPF_MISSING");
    expect((await documentRow(documentId)).status).toBe("expired");
  });
});

describe("search by the short id", () => {
  it("finds a document by '#xxxxxxxx' (or its first characters, any case) and by the bare characters; never another clinic's", async () => {
    const mine = await signableDocument(ctx.app, clinic, { versionId });
    const theirs = await signableDocument(ctx.app, other, { versionId: otherVersionId });
    const search = async (who: SignedIn, q: string) =>
      (
        (await staff(who, "GET", `/api/documents?q=${encodeURIComponent(q)}`)).json().items as {
          id: string;
          short_id: string;
        }[]
      ).map((d) => d.id);
    const short = shortDocumentId(mine.documentId);
    expect(await search(clinic, short)).toEqual([mine.documentId]);
    expect(await search(clinic, ` ${short.toUpperCase()} `)).toEqual([mine.documentId]);
    expect(await search(clinic, short.slice(1))).toEqual([mine.documentId]);
    expect(await search(clinic, short.slice(0, 6))).toContain(mine.documentId);
    for (const id of await search(clinic, short.slice(0, 6)))
      expect(shortDocumentId(id).startsWith(short.slice(0, 6))).toBe(true);
    expect(await search(clinic, shortDocumentId(theirs.documentId))).toEqual([]);
    expect(await search(other, shortDocumentId(theirs.documentId))).toEqual([theirs.documentId]);
    // Only the end of the id is the short id: its first 8 characters behind '#' find nothing.
    expect(await search(clinic, `#${mine.documentId.slice(0, 8)}`)).not.toContain(mine.documentId);
    const total = (await staff(clinic, "GET", `/api/documents?q=${encodeURIComponent(short)}`)).json().total;
    expect(total).toBe(1);
  });
});
