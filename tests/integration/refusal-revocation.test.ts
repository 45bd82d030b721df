/**
 * Informed refusal and revocation (decision 056): on the patient's link with the signature's own
 * checks, and recorded by staff; the status, counters and notices; the sealed record made once by
 * its job, e-mailed and sent to Feegow (against the fake); bad input answered in pt-BR with
 * nothing changed; another clinic's ids; two revocations at once.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratoRegistros, contratos, emailOutbox, files, jobs } from "../../src/db/schema.js";
import { rawRows } from "../../src/db/raw.js";
import { checkAllPdfSignatures } from "../../src/server/services/sealing/verify-pdf-signature.js";
import { formatSignedPdfReport, verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { expectBrowserParity } from "../helpers/browser-parity.js";
import { ERRORS } from "../../src/shared/errors.js";
import { FAKE_FEEGOW_TOKEN, type FakeFeegowServer, startFakeFeegowServer } from "../fakes/feegow-server.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import {
  latestSigningCode,
  draftDocument,
  publishedTemplateVersion,
  type SignablePatient,
  signableDocument,
  signAsPatient,
  tokenOf,
} from "../helpers/signing.js";
import { latestMail } from "../helpers/outbox.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let fake: FakeFeegowServer;
let ctx: TestContext;
/** E-mail code on (the default) and Feegow uploads on. */
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
let otherVersionId: string;

const UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1";
type Method = "GET" | "POST" | "PUT";
const staff = (who: SignedIn, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const publicCall = (method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    payload: payload as object,
    remoteAddress: "203.0.113.9",
    headers: { "user-agent": UA },
  });
const expectError = (response: { statusCode: number; json(): any; body: string }, code: keyof typeof ERRORS) => {
  expect(response.statusCode, response.body).toBe(ERRORS[code].status);
  expect(response.json().code).toBe(code);
};
const tick = () => ctx.app.worker.tick({ sweep: false });

interface Sent {
  documentId: string;
  patient: SignablePatient;
  token: string;
}
/** Helena is a patient the fake Feegow knows (id 4817): her records go to her Feegow file. */
const HELENA = { nome: "Helena Duarte Vasconcelos", cpf: "52998224725", email: "helena@exemplo.com.br" };
async function sentDocument(who: SignedIn = clinic, options: { helena?: boolean } = {}): Promise<Sent> {
  const { documentId, patient } = options.helena
    ? await helenaDocument(who)
    : await signableDocument(ctx.app, who, { versionId: who === other ? otherVersionId : versionId });
  const response = await staff(who, "POST", `/api/documents/${documentId}/send`, {});
  expect(response.statusCode, response.body).toBe(200);
  return { documentId, patient, token: tokenOf(response.json().link as string) };
}

const helenaIds = new Map<string, string>();
async function helenaDocument(who: SignedIn): Promise<{ documentId: string; patient: SignablePatient }> {
  // One Helena per clinic (CPFs are unique there), made the first time.
  let id = helenaIds.get(who.tenantId);
  if (!id) {
    const created = await staff(who, "POST", "/api/patients", { ...HELENA, data_nascimento: "1979-09-23" });
    expect(created.statusCode, created.body).toBe(201);
    id = created.json().id as string;
    helenaIds.set(who.tenantId, id);
  }
  const patient = { id, ...HELENA };
  return { documentId: await draftDocument(ctx.app, who, versionId, patient.id), patient };
}

/** Opens the page, asks for the code, reads it from the outbox: what the page does before a choice. */
async function codeFor(sent: Sent): Promise<string> {
  const asked = await publicCall("POST", `/api/public/sign/${sent.token}/code`);
  expect(asked.statusCode, asked.body).toBe(200);
  return latestSigningCode({ app: ctx.app, database: ctx.database }, sent.patient.email ?? "");
}
const choiceBody = async (sent: Sent, overrides: Record<string, unknown> = {}) => ({
  nome: sent.patient.nome.toUpperCase(),
  cpf: sent.patient.cpf,
  codigo: await codeFor(sent),
  motivo: "Prefiro tratamento clínico por enquanto",
  conteudo_sha256: (await documentRow(sent.documentId)).conteudo_sha256,
  ...overrides,
});

const documentRow = async (id: string) => {
  const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, id));
  if (!row) throw new Error(`no document ${id}`);
  return row;
};
const recordsOf = (id: string) =>
  ctx.database.db.select().from(contratoRegistros).where(eq(contratoRegistros.contrato_id, id));
const actionsOf = async (id: string) =>
  (
    await ctx.database.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_type, "contrato"), eq(auditEvents.entity_id, id)))
      .orderBy(asc(auditEvents.seq))
  ).map((e) => e.action);
const jobsOf = (registroId: string) =>
  ctx.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, "document.choice_record"), sql`${jobs.payload} ->> 'registroId' = ${registroId}`));

/** Runs due jobs until the record is sealed (and its Feegow upload, when queued, has run). */
async function sealRecord(documentId: string) {
  for (let round = 0; round < 20; round++) {
    await tick();
    const [record] = await recordsOf(documentId);
    const pending = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from jobs where status in ('pending', 'running') and kind in ('document.choice_record', 'feegow.upload') and run_at <= now()`,
    );
    if (record?.pdf_file_id && pending[0]?.n === 0) return record;
  }
  throw new Error("record not sealed");
}

async function sealedBytes(fileId: string): Promise<Buffer> {
  const [file] = await ctx.database.db.select().from(files).where(eq(files.id, fileId));
  const bytes = file ? await ctx.app.services.storage.get(file.sha256) : null;
  if (!bytes) throw new Error("no stored record");
  return bytes;
}

/** The PDF's text as pdftotext reads it, whitespace collapsed (a long hash may wrap). */
function pdfText(pdf: Buffer): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "registro-")), "registro.pdf");
  writeFileSync(file, pdf);
  return execFileSync("pdftotext", [file, "-"]).toString("utf8").replace(/\s+/g, " ");
}
const compact = (text: string) => text.replace(/\s+/g, "");

beforeAll(async () => {
  fake = await startFakeFeegowServer();
  ctx = await createTestApp({
    env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "100000", FEEGOW_URL: fake.url, FEEGOW_TIMEOUT_MS: "2000" },
  });
  clinic = await newClinic(ctx.app);
  expect((await staff(clinic, "PUT", "/api/integration/feegow", { token: FAKE_FEEGOW_TOKEN })).statusCode).toBe(200);
  expect((await staff(clinic, "POST", "/api/integration/feegow/test")).statusCode).toBe(200);
  const switches = { integrations: { patients: true, file_upload: true } };
  expect((await staff(clinic, "PUT", "/api/integration/feegow", switches)).statusCode).toBe(200);
  other = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
  otherVersionId = await publishedTemplateVersion(ctx.app, other);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

describe("informed refusal on the patient's link", () => {
  it("refuses with a reason after the same checks as signing; status recusado; the link stops; a sealed record is made once", async () => {
    const sent = await sentDocument(clinic, { helena: true });
    const before = await staff(clinic, "GET", "/api/documents/counters");
    const body = await choiceBody(sent);
    const response = await publicCall("POST", `/api/public/sign/${sent.token}/refuse`, body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ estado: "recusado", codigo_verificacao: expect.any(String) });

    const row = await documentRow(sent.documentId);
    expect(row.status).toBe("recusado");
    expect(row.recusado_at).not.toBeNull();
    expect(row.verification_code).toBe(response.json().codigo_verificacao);
    const [record] = await recordsOf(sent.documentId);
    expect(record).toMatchObject({
      tipo: "recusa",
      origem: "paciente",
      meio: "link",
      nome: sent.patient.nome,
      cpf: sent.patient.cpf,
      motivo: body.motivo,
      otp_verificado: true,
      pdf_file_id: null,
    });
    expect(await actionsOf(sent.documentId)).toContain("document.refused");
    expect(await jobsOf(record!.id)).toHaveLength(1);

    // Counters and the list's filter.
    const after = (await staff(clinic, "GET", "/api/documents/counters")).json();
    expect(after.recusados).toBe(before.json().recusados + 1);
    expect(after.pendentes).toBe(before.json().pendentes - 1);
    const listed = (await staff(clinic, "GET", "/api/documents?status=recusado")).json();
    expect(listed.items.map((d: { id: string }) => d.id)).toContain(sent.documentId);
    expect(listed.items.find((d: { id: string }) => d.id === sent.documentId).recusado_at).toBe(
      row.recusado_at?.toISOString(),
    );

    // The link no longer opens nor signs; the same refusal again is refused.
    expectError(await publicCall("GET", `/api/public/sign/${sent.token}`), "SIGNING_LINK_INVALID");
    const signing = await publicCall("POST", `/api/public/sign/${sent.token}`, {
      nome: sent.patient.nome,
      cpf: sent.patient.cpf,
      email: sent.patient.email,
      assinatura: "data:image/png;base64,iVBORw0KGgo=",
      conteudo_sha256: row.conteudo_sha256,
      aceite_eletronico: true,
    });
    expectError(signing, "SIGNING_LINK_INVALID");
    expectError(await publicCall("POST", `/api/public/sign/${sent.token}/refuse`, body), "SIGNING_LINK_INVALID");
    expect(await recordsOf(sent.documentId)).toHaveLength(1);

    // The job seals it: stored, e-mailed to the patient with the record attached, sent to Feegow.
    const sealed = await sealRecord(sent.documentId);
    expect(sealed.pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
    const pdf = await sealedBytes(sealed.pdf_file_id!);
    const verdict = checkAllPdfSignatures(pdf);
    expect(verdict.valid, verdict.reason).toBe(true);
    expect(verdict.signatures.length).toBeGreaterThan(0);
    const textOfPdf = pdfText(pdf);
    expect(textOfPdf).toContain("Registro de recusa");
    expect(textOfPdf).toContain(body.motivo);
    // The offline verifier holds a refusal with no signer, and says what it is.
    const offline = verifySignedPdf(pdf);
    expect(offline.ok, formatSignedPdfReport(offline)).toBe(true);
    expect(offline.registro?.tipo).toBe("recusa");
    // The browser verifier says the same lines (decision 077).
    expect((await expectBrowserParity(pdf, offline)).registro?.titulo).toBe("Registro de recusa");
    expect(formatSignedPdfReport(offline)).toContain("✓ A recusa tem seu evento na cadeia");
    expect(compact(textOfPdf)).toContain(row.conteudo_sha256);
    const mails = await ctx.database.db
      .select()
      .from(emailOutbox)
      .where(sql`${emailOutbox.attachments} @> ${JSON.stringify([{ file_id: sealed.pdf_file_id }])}::jsonb`);
    expect(mails.map((m) => m.to_address)).toContain(sent.patient.email);
    expect(mails.every((m) => m.subject.startsWith("Registro de recusa"))).toBe(true);
    expect(fake.uploads.some((u) => u.sha256 === sealed.pdf_sha256)).toBe(true);
    expect(String(fake.uploads.find((u) => u.sha256 === sealed.pdf_sha256)?.arquivo_descricao)).toMatch(
      /^Registro de recusa - /,
    );
    // Staff cannot push the refused term itself to the chart: it would read as a consent.
    const uploadsBefore = fake.uploads.length;
    const manual = await staff(clinic, "POST", `/api/documents/${sent.documentId}/feegow-upload`);
    expect(manual.statusCode, manual.body).toBe(409);
    expect(manual.json().message).toContain("Registro de recusa selado");
    expect(fake.uploads.length).toBe(uploadsBefore);
    // Once: another round of the job changes nothing.
    await ctx.database.db
      .insert(jobs)
      .values({ kind: "document.choice_record", payload: { registroId: sealed.id }, tenant_id: clinic.tenantId });
    await tick();
    const [again] = await recordsOf(sent.documentId);
    expect(again?.pdf_sha256).toBe(sealed.pdf_sha256);
    expect((await actionsOf(sent.documentId)).filter((a) => a === "document.choice_sealed")).toHaveLength(1);

    // The document page and the notices tell it.
    const page = (await staff(clinic, "GET", `/api/documents/${sent.documentId}`)).json();
    expect(page.status).toBe("recusado");
    expect(page.registros).toEqual([
      expect.objectContaining({ tipo: "recusa", origem: "paciente", motivo: body.motivo, pdf_pronto: true }),
    ]);
    const notices = (await staff(clinic, "GET", "/api/notices")).json();
    expect(JSON.stringify(notices)).toContain("Recusado pelo paciente");
    // /verificar with the record's code.
    const verified = await publicCall("GET", `/api/public/verify/${row.verification_code}`);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ status: "recusado", pdf_selado_sha256: sealed.pdf_sha256 });
  });

  it("refuses wrong name, CPF and code with their pt-BR errors, keeps their events and changes nothing", async () => {
    const sent = await sentDocument();
    const url = `/api/public/sign/${sent.token}/refuse`;
    // One code for all the attempts (a wrong one does not spend it; a page asks for few).
    const base = await choiceBody(sent);
    const attempt = (overrides: Record<string, unknown>) => publicCall("POST", url, { ...base, ...overrides });
    expectError(await attempt({ nome: "Outra Pessoa" }), "SIGNING_NAME_MISMATCH");
    expectError(await attempt({ cpf: "11144477735" }), "SIGNING_CPF_MISMATCH");
    expectError(await attempt({ codigo: "000000" }), "SIGNING_OTP_INVALID");
    expectError(await attempt({ codigo: undefined }), "SIGNING_OTP_REQUIRED");
    expectError(await attempt({ conteudo_sha256: "0".repeat(64) }), "SIGNING_CONTENT_CHANGED");
    // Malformed bodies: 400 in pt-BR.
    for (const bad of [{}, { nome: 3 }, "texto", { ...base, motivo: "x".repeat(1001) }]) {
      const response = await publicCall("POST", url, bad);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toMatch(/[a-zç]/);
    }
    expectError(await publicCall("POST", `/api/public/sign/nao-e-um-token/refuse`, base), "SIGNING_LINK_INVALID");
    const row = await documentRow(sent.documentId);
    expect(row.status).toBe("sent");
    expect(await recordsOf(sent.documentId)).toHaveLength(0);
    const failed = (await actionsOf(sent.documentId)).filter((a) => a === "document.sign_attempt_failed");
    expect(failed).toHaveLength(3);
  });

  it("cannot refuse a signed, cancelled or expired document", async () => {
    const signed = await sentDocument();
    const signing = await signAsPatient(ctx.app, ctx.database, signed.token, signed.patient);
    expect(signing.response.statusCode, signing.response.body).toBe(200);
    expectError(
      await publicCall(
        "POST",
        `/api/public/sign/${signed.token}/refuse`,
        await choiceBody(signed).catch(() => ({
          nome: signed.patient.nome,
          cpf: signed.patient.cpf,
          conteudo_sha256: "a".repeat(64),
        })),
      ),
      "SIGNING_ALREADY_SIGNED",
    );
    expect((await documentRow(signed.documentId)).status).toBe("signed");

    const cancelled = await sentDocument();
    const body = await choiceBody(cancelled);
    expect(
      (await staff(clinic, "POST", `/api/documents/${cancelled.documentId}/cancel`, { motivo: "Erro de cadastro" }))
        .statusCode,
    ).toBe(204);
    expectError(await publicCall("POST", `/api/public/sign/${cancelled.token}/refuse`, body), "SIGNING_LINK_INVALID");
    expect((await documentRow(cancelled.documentId)).status).toBe("cancelled");

    const expired = await sentDocument();
    const expiredBody = await choiceBody(expired);
    await ctx.database.db
      .update(contratos)
      .set({ expiracao_at: new Date(Date.now() - 1000) })
      .where(eq(contratos.id, expired.documentId));
    expectError(
      await publicCall("POST", `/api/public/sign/${expired.token}/refuse`, expiredBody),
      "SIGNING_LINK_INVALID",
    );
    expect(await recordsOf(expired.documentId)).toHaveLength(0);
  });

  it("a refused document is kept: it cannot be deleted (retention)", async () => {
    const sent = await sentDocument();
    expect((await publicCall("POST", `/api/public/sign/${sent.token}/refuse`, await choiceBody(sent))).statusCode).toBe(
      200,
    );
    const deleted = await staff(clinic, "DELETE" as Method, `/api/documents/${sent.documentId}`);
    expect(deleted.statusCode, deleted.body).toBeGreaterThanOrEqual(400);
    expect(deleted.statusCode).toBeLessThan(500);
    await expect(
      ctx.database.db.delete(contratoRegistros).where(eq(contratoRegistros.contrato_id, sent.documentId)),
    ).rejects.toThrow();
    await expect(
      ctx.database.db
        .update(contratoRegistros)
        .set({ motivo: "outro" })
        .where(eq(contratoRegistros.contrato_id, sent.documentId)),
    ).rejects.toThrow();
  });
});

describe("refusal recorded by staff", () => {
  it("records an in-person refusal: who recorded it, how, when; another clinic's id is 404; bad bodies 400", async () => {
    const sent = await sentDocument();
    const url = `/api/documents/${sent.documentId}/refusal`;
    expect((await staff(other, "POST", url, { meio: "presencial" })).statusCode).toBe(404);
    for (const bad of [
      {},
      { meio: "carta" },
      { meio: "presencial", ocorrido_em: "ontem" },
      { meio: "presencial", motivo: 5 },
    ]) {
      const response = await staff(clinic, "POST", url, bad);
      expect(response.statusCode, response.body).toBe(400);
    }
    expectError(
      await staff(clinic, "POST", url, {
        meio: "presencial",
        ocorrido_em: new Date(Date.now() + 86_400_000).toISOString(),
      }),
      "CHOICE_IN_FUTURE",
    );
    expect((await documentRow(sent.documentId)).status).toBe("sent");

    const said = new Date(Date.now() - 3_600_000);
    const response = await staff(clinic, "POST", url, {
      meio: "presencial",
      motivo: "Decidiu não operar",
      ocorrido_em: said.toISOString(),
    });
    expect(response.statusCode, response.body).toBe(201);
    const [record] = await recordsOf(sent.documentId);
    expect(record).toMatchObject({
      origem: "equipe",
      meio: "presencial",
      registrado_por: clinic.profileId,
      cpf: null,
      otp_verificado: false,
    });
    expect(record?.ocorrido_em.toISOString()).toBe(said.toISOString());
    expect((await documentRow(sent.documentId)).status).toBe("recusado");
    // The patient's link stops too; a second refusal is refused.
    expectError(await publicCall("GET", `/api/public/sign/${sent.token}`), "SIGNING_LINK_INVALID");
    expectError(await staff(clinic, "POST", url, { meio: "telefone" }), "DOCUMENT_NOT_REFUSABLE");
    const sealed = await sealRecord(sent.documentId);
    const textOfPdf = pdfText(await sealedBytes(sealed.pdf_file_id!));
    expect(textOfPdf).toContain("pessoalmente, à equipe");
  });

  it("a reception role without write rights cannot record; a signed document cannot be refused", async () => {
    const signed = await sentDocument();
    expect((await signAsPatient(ctx.app, ctx.database, signed.token, signed.patient)).response.statusCode).toBe(200);
    expectError(
      await staff(clinic, "POST", `/api/documents/${signed.documentId}/refusal`, { meio: "presencial" }),
      "SIGNING_ALREADY_SIGNED",
    );
    const auditor = await newStaff(ctx.app, ctx.database, clinic.tenantId, "auditor");
    const sent = await sentDocument();
    expectError(
      await staff(auditor, "POST", `/api/documents/${sent.documentId}/refusal`, { meio: "presencial" }),
      "FORBIDDEN",
    );
    expect((await documentRow(sent.documentId)).status).toBe("sent");
  });
});

describe("revocation of a signed consent", () => {
  async function signedDocument(options: { helena?: boolean } = {}): Promise<Sent> {
    const sent = await sentDocument(clinic, options);
    const signing = await signAsPatient(ctx.app, ctx.database, sent.token, sent.patient);
    expect(signing.response.statusCode, signing.response.body).toBe(200);
    // The original's sealed PDF first (the finalize job).
    for (let round = 0; round < 10 && !(await documentRow(sent.documentId)).signed_pdf_sha256; round++) await tick();
    expect((await documentRow(sent.documentId)).signed_pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
    return sent;
  }

  it("staff record an in-person revocation; two at once make one record; the original PDF is untouched", async () => {
    const sent = await signedDocument();
    const original = await documentRow(sent.documentId);
    const url = `/api/documents/${sent.documentId}/revocation`;
    expect((await staff(other, "POST", url, { meio: "telefone" })).statusCode).toBe(404);
    expect((await staff(clinic, "POST", url, { meio: "fax" })).statusCode).toBe(400);
    const [a, b] = await Promise.all([
      staff(clinic, "POST", url, { meio: "presencial", motivo: "Não quero mais" }),
      staff(clinic, "POST", url, { meio: "telefone" }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.statusCode === 409)?.json().code).toBe("DOCUMENT_ALREADY_REVOKED");
    const records = await recordsOf(sent.documentId);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      tipo: "revogacao",
      origem: "equipe",
      registrado_por: clinic.profileId,
      original_pdf_sha256: original.signed_pdf_sha256,
      original_verification_code: original.verification_code,
    });
    const row = await documentRow(sent.documentId);
    expect(row.status).toBe("signed");
    expect(row.revogado_at).not.toBeNull();
    expect(row.signed_pdf_sha256).toBe(original.signed_pdf_sha256);
    expect(row.signed_pdf_file_id).toBe(original.signed_pdf_file_id);
    expectError(await staff(clinic, "POST", url, { meio: "presencial" }), "DOCUMENT_ALREADY_REVOKED");

    // Staff download the record from the document page: not before it is sealed, never another clinic's.
    const recordUrl = `/api/documents/${sent.documentId}/records/${records[0]!.id}/pdf`;
    expectError(await staff(clinic, "GET", recordUrl), "PDF_UNAVAILABLE");
    const sealed = await sealRecord(sent.documentId);
    const recordPdf = await sealedBytes(sealed.pdf_file_id!);
    const downloaded = await staff(clinic, "GET", recordUrl);
    expect(downloaded.statusCode).toBe(200);
    expect(downloaded.headers["content-type"]).toBe("application/pdf");
    expect(downloaded.rawPayload.equals(recordPdf)).toBe(true);
    expect(await actionsOf(sent.documentId)).toContain("document.choice_record_downloaded");
    expect((await staff(other, "GET", recordUrl)).statusCode).toBe(404);
    const otherDocument = (await signableDocument(ctx.app, clinic, { versionId })).documentId;
    expectError(
      await staff(clinic, "GET", `/api/documents/${otherDocument}/records/${records[0]!.id}/pdf`),
      "CHOICE_RECORD_NOT_FOUND",
    );
    expect((await staff(clinic, "GET", `/api/documents/${sent.documentId}/records/nao-e-id/pdf`)).statusCode).toBe(400);
    const text = compact(pdfText(recordPdf));
    expect(text).toContain(compact("Registro de revogação"));
    // The offline verifier (npm run verify): the record stands alone and checks against its original.
    const originalPdf = await sealedBytes(original.signed_pdf_file_id!);
    const alone = verifySignedPdf(recordPdf);
    expect(alone.ok, formatSignedPdfReport(alone)).toBe(true);
    expect((await expectBrowserParity(recordPdf, alone)).registro?.titulo).toBe("Registro de revogação");
    expect(alone.registro).toMatchObject({
      tipo: "revogacao",
      item: null,
      original_codigo_verificacao: original.verification_code,
      original_pdf_sha256: original.signed_pdf_sha256,
    });
    const printed = formatSignedPdfReport(alone);
    expect(printed).toContain("Registro de revogação\nDocumento");
    expect(printed).toContain("✓ A revogação tem seu evento na cadeia.");
    expect(printed).toContain(`código de verificação ${original.verification_code}, PDF selado com SHA-256`);
    const against = verifySignedPdf(recordPdf, { original: originalPdf });
    expect(against.ok).toBe(true);
    expect(formatSignedPdfReport(against)).toContain("✓ O PDF original informado (--original) é exatamente o que");
    // Another file named as the original: the check fails.
    const wrong = verifySignedPdf(recordPdf, { original: recordPdf });
    expect(wrong.ok).toBe(false);
    expect(formatSignedPdfReport(wrong)).toContain("✗ O PDF original informado (--original, SHA-256");
    expect(text).toContain(original.signed_pdf_sha256!);
    // The original's online check tells both.
    const verified = (await publicCall("GET", `/api/public/verify/${original.verification_code}`)).json();
    expect(verified).toMatchObject({ status: "signed", revogado_em: row.revogado_at?.toISOString() });
    expect(verified.registros).toEqual([
      expect.objectContaining({
        tipo: "revogacao",
        codigo: records[0]!.verification_code,
        pdf_sha256: sealed.pdf_sha256,
      }),
    ]);
    const counters = (await staff(clinic, "GET", "/api/documents/counters")).json();
    expect(counters.revogados).toBeGreaterThanOrEqual(1);
  });

  it("cannot revoke a draft; another clinic's counters do not see it", async () => {
    const { documentId } = await signableDocument(ctx.app, clinic, { versionId });
    expectError(
      await staff(clinic, "POST", `/api/documents/${documentId}/revocation`, { meio: "presencial" }),
      "DOCUMENT_NOT_REVOCABLE",
    );
    expect(await recordsOf(documentId)).toHaveLength(0);
    expect((await staff(other, "GET", "/api/documents/counters")).json().revogados).toBe(0);
  });

  it("the patient revokes from the link with name, CPF and code; a wrong CPF changes nothing; sent to Feegow", async () => {
    const sent = await signedDocument({ helena: true });
    const url = `/api/public/sign/${sent.token}/revoke`;
    // The signed page offers the revocation, with the code the clinic asks for (decision 056).
    const before = await publicCall("GET", `/api/public/sign/${sent.token}`);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().revogacao).toEqual({
      revogado_em: null,
      codigo_verificacao: null,
      codigo_obrigatorio: true,
      codigo_canais: [{ canal: "email", destino: expect.stringContaining("@") }],
    });
    const base = await choiceBody(sent, { motivo: "Mudei de ideia" });
    // The code's e-mail says what it is for: revoking, not signing.
    const mail = await latestMail({ app: ctx.app, database: ctx.database }, sent.patient.email ?? "");
    expect(mail?.subject).toMatch(/: seu código para revogar o consentimento$/);
    expect(mail?.text).toContain(`para revogar o seu consentimento ao documento`);
    expect(`${mail?.subject} ${mail?.text}`).not.toMatch(/para assinar/);
    expectError(await publicCall("POST", url, { ...base, cpf: "11144477735" }), "SIGNING_CPF_MISMATCH");
    expect((await documentRow(sent.documentId)).revogado_at).toBeNull();
    const response = await publicCall("POST", url, base);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().estado).toBe("revogado");
    expectError(await publicCall("POST", url, base), "DOCUMENT_ALREADY_REVOKED");
    // Reopened: revoked, with the record's code, and no code asked any more.
    const after = (await publicCall("GET", `/api/public/sign/${sent.token}`)).json();
    expect(after.revogacao).toEqual({
      revogado_em: response.json().em,
      codigo_verificacao: response.json().codigo_verificacao,
      codigo_obrigatorio: false,
      codigo_canais: [],
    });
    expectError(await publicCall("POST", `/api/public/sign/${sent.token}/code`), "DOCUMENT_ALREADY_REVOKED");
    const sealed = await sealRecord(sent.documentId);
    expect(fake.uploads.some((u) => u.sha256 === sealed.pdf_sha256)).toBe(true);
    expect(String(fake.uploads.find((u) => u.sha256 === sealed.pdf_sha256)?.arquivo_descricao)).toMatch(
      /^Registro de revogação - /,
    );
  });
});
