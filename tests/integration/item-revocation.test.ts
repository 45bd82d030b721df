/**
 * Revoking one optional consent (decisions 056 and 057): a "Sim" is revoked on its own, by the
 * patient on the link with the signature's checks or by staff from what the patient told them; a
 * sealed "Registro de revogação" names the item (its title and text as signed) and links to the
 * original; the main consent and the other answers stand. Each refusal answered in pt-BR with
 * nothing written; another clinic's token and ids; two at once make one record.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratoRegistros, contratos, files } from "../../src/db/schema.js";
import { rawRows } from "../../src/db/raw.js";
import { embeddedFiles } from "../../src/server/services/sealing/pdf-embedded-files.js";
import { checkAllPdfSignatures } from "../../src/server/services/sealing/verify-pdf-signature.js";
import { formatSignedPdfReport, verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { expectBrowserParity } from "../helpers/browser-parity.js";
import { ERRORS } from "../../src/shared/errors.js";
import { FAKE_FEEGOW_TOKEN, type FakeFeegowServer, startFakeFeegowServer } from "../fakes/feegow-server.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import {
  draftDocument,
  latestSigningCode,
  type SignablePatient,
  signAsPatient,
  signingPatient,
  tokenOf,
} from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";
import { entryText, unzipEntries } from "../helpers/data-rights.js";

let fake: FakeFeegowServer;
let ctx: TestContext;
/** No code asked; Feegow uploads on. */
let clinic: SignedIn;
/** Another clinic, asking for the e-mail code (the default). */
let other: SignedIn;
let versionId: string;
let otherVersionId: string;

const ITEMS = [
  { id: "imagem-prontuario", title: "Uso de imagem no prontuário", text: "Fotos de {{procedimento}} no prontuário." },
  { id: "imagem-divulgacao", title: "Uso de imagem para divulgação", text: "Fotos nas redes da clínica." },
  { id: "contato-pesquisas", title: "Contato para pesquisas", text: "Convites para pesquisas clínicas da equipe." },
];
const STRUCTURE = {
  title: "Termo — {{procedimento}}",
  introduction: "Eu, {{paciente_nome}}, autorizo {{procedimento}}.",
  sections: [
    { id: "s1", type: "paragraph", title: "Riscos", content: "Riscos explicados." },
    { id: "s2", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}" },
  ],
  optional_consents: ITEMS,
};
/** Photos for publicity refused, the rest accepted. */
const ANSWERS = [
  { id: "imagem-prontuario", aceito: true },
  { id: "imagem-divulgacao", aceito: false },
  { id: "contato-pesquisas", aceito: true },
];

type Method = "GET" | "POST" | "PUT";
const staff = (who: SignedIn, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const publicCall = (method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, remoteAddress: "203.0.113.7" });
const expectError = (response: { statusCode: number; json(): any; body: string }, code: keyof typeof ERRORS) => {
  expect(response.statusCode, response.body).toBe(ERRORS[code].status);
  expect(response.json().code).toBe(code);
  expect(response.json().message).toBe(ERRORS[code].message);
};
const tick = () => ctx.app.worker.tick({ sweep: false });

interface Sent {
  documentId: string;
  patient: SignablePatient;
  token: string;
}

async function optionalTemplate(who: SignedIn) {
  const specialties = (await staff(who, "GET", "/api/templates/specialties")).json().items as string[];
  const created = await staff(who, "POST", "/api/templates", {
    titulo: "TCLE com opcionais",
    especialidade: specialties[0],
    categoria: "Consentimento",
    estrutura: STRUCTURE,
  });
  expect(created.statusCode, created.body).toBe(201);
  const published = await staff(who, "POST", `/api/templates/${created.json().id}/status`, { status: "published" });
  expect(published.statusCode, published.body).toBe(200);
  return published.json().versao_atual_id as string;
}

const HELENA = { nome: "Helena Duarte Vasconcelos", cpf: "52998224725", email: "helena@exemplo.com.br" };
let helenaId: string | null = null;

async function sentDocument(who: SignedIn = clinic, options: { helena?: boolean } = {}): Promise<Sent> {
  let patient: SignablePatient;
  if (options.helena) {
    // Helena is a patient the fake Feegow knows: her records go to her Feegow file.
    if (!helenaId) {
      const created = await staff(who, "POST", "/api/patients", { ...HELENA, data_nascimento: "1979-09-23" });
      expect(created.statusCode, created.body).toBe(201);
      helenaId = created.json().id as string;
    }
    patient = { id: helenaId, ...HELENA };
  } else patient = await signingPatient(ctx.app, who);
  const documentId = await draftDocument(ctx.app, who, who === other ? otherVersionId : versionId, patient.id);
  const response = await staff(who, "POST", `/api/documents/${documentId}/send`, {});
  expect(response.statusCode, response.body).toBe(200);
  return { documentId, patient, token: tokenOf(response.json().link as string) };
}

async function signedDocument(who: SignedIn = clinic, options: { helena?: boolean } = {}): Promise<Sent> {
  const sent = await sentDocument(who, options);
  const signing = await signAsPatient(ctx.app, ctx.database, sent.token, sent.patient, {
    consentimentos_opcionais: ANSWERS,
  });
  expect(signing.response.statusCode, signing.response.body).toBe(200);
  for (let round = 0; round < 10 && !(await documentRow(sent.documentId)).signed_pdf_sha256; round++) await tick();
  expect((await documentRow(sent.documentId)).signed_pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
  return sent;
}

const documentRow = async (id: string) => {
  const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, id));
  if (!row) throw new Error(`no document ${id}`);
  return row;
};
const recordsOf = (id: string) =>
  ctx.database.db
    .select()
    .from(contratoRegistros)
    .where(eq(contratoRegistros.contrato_id, id))
    .orderBy(asc(contratoRegistros.created_at));
const actionsOf = async (id: string) =>
  (
    await ctx.database.db
      .select({ action: auditEvents.action, data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_type, "contrato"), eq(auditEvents.entity_id, id)))
      .orderBy(asc(auditEvents.seq))
  ).map((e) => e.action);

const body = (sent: Sent, overrides: Record<string, unknown> = {}) =>
  documentRow(sent.documentId).then((row) => ({
    nome: sent.patient.nome,
    cpf: sent.patient.cpf,
    motivo: "Não quero mais ser contatada",
    conteudo_sha256: row.conteudo_sha256,
    ...overrides,
  }));
const itemUrl = (sent: Sent, item: string) => `/api/public/sign/${sent.token}/optional-consents/${item}/revoke`;

/** Runs due jobs until the document's item record is sealed (and its Feegow upload, when queued, has run). */
async function sealItemRecord(documentId: string, itemId: string) {
  for (let round = 0; round < 20; round++) {
    await tick();
    const record = (await recordsOf(documentId)).find((r) => r.item_id === itemId);
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
function pdfText(pdf: Buffer): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "registro-item-")), "registro.pdf");
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
  expect((await staff(clinic, "PUT", "/api/settings/signing", { codigo_email: false })).statusCode).toBe(200);
  expect((await staff(clinic, "PUT", "/api/integration/feegow", { token: FAKE_FEEGOW_TOKEN })).statusCode).toBe(200);
  expect((await staff(clinic, "POST", "/api/integration/feegow/test")).statusCode).toBe(200);
  const switches = { integrations: { patients: true, file_upload: true } };
  expect((await staff(clinic, "PUT", "/api/integration/feegow", switches)).statusCode).toBe(200);
  other = await newClinic(ctx.app);
  versionId = await optionalTemplate(clinic);
  otherVersionId = await optionalTemplate(other);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

describe("the patient revokes one optional consent on the link", () => {
  it("revokes the research item only: a sealed record names it and links to the original; sent to Feegow", async () => {
    const sent = await signedDocument(clinic, { helena: true });
    const original = await documentRow(sent.documentId);
    const response = await publicCall("POST", itemUrl(sent, "contato-pesquisas"), await body(sent));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ estado: "revogado", codigo_verificacao: expect.any(String) });

    // The main consent stands: still signed, not revoked, its PDF untouched.
    const row = await documentRow(sent.documentId);
    expect(row).toMatchObject({
      status: "signed",
      revogado_at: null,
      signed_pdf_sha256: original.signed_pdf_sha256,
      signed_pdf_file_id: original.signed_pdf_file_id,
    });
    const records = await recordsOf(sent.documentId);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      tipo: "revogacao",
      item_id: "contato-pesquisas",
      origem: "paciente",
      meio: "link",
      cpf: sent.patient.cpf,
      otp_verificado: false,
      verification_code: response.json().codigo_verificacao,
      original_pdf_sha256: original.signed_pdf_sha256,
      original_verification_code: original.verification_code,
    });
    const actions = await actionsOf(sent.documentId);
    expect(actions).toContain("document.optional_consent_revoked");
    expect(actions).not.toContain("document.revoked");

    // The page shows it revoked, the whole revocation still offered.
    const page = (await publicCall("GET", `/api/public/sign/${sent.token}`)).json();
    expect(page.consentimentos_opcionais).toEqual([
      { id: "imagem-prontuario", aceito: true },
      { id: "imagem-divulgacao", aceito: false },
      {
        id: "contato-pesquisas",
        aceito: true,
        revogado_em: response.json().em,
        codigo_revogacao: response.json().codigo_verificacao,
      },
    ]);
    expect(page.revogacao).toMatchObject({ revogado_em: null, codigo_verificacao: null });
    // The staff document page: per item, and the record with its item.
    const detail = (await staff(clinic, "GET", `/api/documents/${sent.documentId}`)).json();
    expect(
      detail.consentimentos_opcionais.map((a: { id: string; revogado_em: string | null }) => [a.id, a.revogado_em]),
    ).toEqual([
      ["imagem-prontuario", null],
      ["imagem-divulgacao", null],
      ["contato-pesquisas", response.json().em],
    ]);
    expect(detail.registros).toEqual([expect.objectContaining({ tipo: "revogacao", item_id: "contato-pesquisas" })]);
    expect(detail.audit.map((e: { label: string }) => e.label)).toContain(
      "Autorização opcional revogada: Contato para pesquisas",
    );

    // The sealed record: verifies, names the item (title and text as signed), links to the original.
    const sealed = await sealItemRecord(sent.documentId, "contato-pesquisas");
    const pdf = await sealedBytes(sealed.pdf_file_id!);
    const verdict = checkAllPdfSignatures(pdf);
    expect(verdict.valid, verdict.reason).toBe(true);
    const text = pdfText(pdf);
    expect(text).toContain("Registro de revogação");
    expect(text).toContain("Autorização revogada: Contato para pesquisas");
    expect(text).toContain("Convites para pesquisas clínicas da equipe.");
    expect(text).toContain("Só esta autorização é revogada");
    expect(compact(text)).toContain(original.signed_pdf_sha256!);
    expect(compact(text)).toContain(original.verification_code!);
    const evidence = JSON.parse(
      embeddedFiles(pdf)
        .find((f) => f.name === "evidencias.json")!
        .bytes.toString("utf8"),
    );
    expect(evidence.registro).toMatchObject({
      tipo: "revogacao",
      original_pdf_sha256: original.signed_pdf_sha256,
      original_codigo_verificacao: original.verification_code,
      item: {
        id: "contato-pesquisas",
        titulo: "Contato para pesquisas",
        texto: "Convites para pesquisas clínicas da equipe.",
      },
    });
    // Feegow gets it like the whole revocation's, described with the item it revokes.
    expect(String(fake.uploads.find((u) => u.sha256 === sealed.pdf_sha256)?.arquivo_descricao)).toMatch(
      /^Registro de revogação da autorização “Contato para pesquisas” - /,
    );
    // The offline verifier (npm run verify) names the item and checks it against the frozen content.
    const offline = verifySignedPdf(pdf, { original: await sealedBytes(original.signed_pdf_file_id!) });
    expect(offline.ok, formatSignedPdfReport(offline)).toBe(true);
    expect(offline.registro?.item).toEqual({ id: "contato-pesquisas", titulo: "Contato para pesquisas" });
    // The browser verifier, which has no --original, says what the CLI says without it (decision 077).
    const local = await expectBrowserParity(pdf);
    expect(local.linhas).toContainEqual({
      ok: true,
      text: "Revoga só a autorização opcional “Contato para pesquisas”; o consentimento principal continua válido.",
    });
    const report = formatSignedPdfReport(offline);
    expect(report).toContain(
      "✓ Revoga só a autorização opcional “Contato para pesquisas”; o consentimento principal continua válido.",
    );
    expect(report).toContain("✓ O PDF original informado (--original) é exatamente o que este registro revoga");
    // The record's code at /verificar: the document still signed, not revoked, the item's record listed.
    const verified = (await publicCall("GET", `/api/public/verify/${sealed.verification_code}`)).json();
    expect(verified).toMatchObject({ status: "signed", revogado_em: null });
    expect(verified.registros).toEqual([
      expect.objectContaining({
        tipo: "revogacao",
        codigo: sealed.verification_code,
        pdf_sha256: sealed.pdf_sha256,
        autorizacao: "Contato para pesquisas",
      }),
    ]);

    // The same item again: 409, nothing written; another "Sim" item can still be revoked; then the whole consent.
    expectError(
      await publicCall("POST", itemUrl(sent, "contato-pesquisas"), await body(sent)),
      "OPTIONAL_CONSENT_ALREADY_REVOKED",
    );
    expect(await recordsOf(sent.documentId)).toHaveLength(1);
    const image = await publicCall("POST", itemUrl(sent, "imagem-prontuario"), await body(sent));
    expect(image.statusCode, image.body).toBe(200);
    const whole = await publicCall("POST", `/api/public/sign/${sent.token}/revoke`, await body(sent));
    expect(whole.statusCode, whole.body).toBe(200);
    expect((await recordsOf(sent.documentId)).map((r) => r.item_id)).toEqual([
      "contato-pesquisas",
      "imagem-prontuario",
      null,
    ]);

    // The patient's export (LGPD art. 18): each record beside its document, the sealed one as its PDF.
    const zip = unzipEntries((await staff(clinic, "GET", `/api/patients/${sent.patient.id}/export`)).rawPayload);
    const index = JSON.parse(entryText(zip, "documentos.json")) as {
      id: string;
      revogado_em: string | null;
      registros: { tipo: string; autorizacao: string | null; codigo_verificacao: string; arquivo: string | null }[];
    }[];
    const exported = index.find((d) => d.id === sent.documentId)!;
    expect(exported.revogado_em).toBe(whole.json().em);
    expect(exported.registros.map((r) => [r.tipo, r.autorizacao])).toEqual([
      ["Registro de revogação", "Contato para pesquisas"],
      ["Registro de revogação", "Uso de imagem no prontuário"],
      ["Registro de revogação", null],
    ]);
    const first = exported.registros[0]!;
    expect(first.codigo_verificacao).toBe(sealed.verification_code);
    expect(first.arquivo).toMatch(new RegExp(`_registro-de-revogacao_${sealed.verification_code}\\.pdf$`));
    expect(Buffer.from(zip[first.arquivo!]!).equals(pdf)).toBe(true);
    // Not sealed yet (no job ran for the later two): said so, never a missing file.
    expect(exported.registros[2]).toMatchObject({ arquivo: null, observacao: expect.stringContaining("sendo gerado") });
  });

  it("answers each refusal in pt-BR and writes nothing", async () => {
    const sent = await signedDocument();
    const count = async () => (await recordsOf(sent.documentId)).length;
    expectError(await publicCall("POST", itemUrl(sent, "nao-existe"), await body(sent)), "OPTIONAL_CONSENT_NOT_FOUND");
    expectError(
      await publicCall("POST", itemUrl(sent, "imagem-divulgacao"), await body(sent)),
      "OPTIONAL_CONSENT_DECLINED",
    );
    expectError(
      await publicCall("POST", itemUrl(sent, "contato-pesquisas"), await body(sent, { cpf: "11144477735" })),
      "SIGNING_CPF_MISMATCH",
    );
    // Malformed: a bad item id, a bad CPF, no body.
    for (const [url, payload] of [
      [`/api/public/sign/${sent.token}/optional-consents/NAO%20VALE/revoke`, await body(sent)],
      [itemUrl(sent, "contato-pesquisas"), await body(sent, { cpf: "123" })],
      [itemUrl(sent, "contato-pesquisas"), undefined],
    ] as const) {
      const response = await publicCall("POST", url, payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toMatch(/[a-zà-ú]/);
    }
    expect(await count()).toBe(0);
    // The whole consent revoked: no item can be revoked after it.
    expect((await publicCall("POST", `/api/public/sign/${sent.token}/revoke`, await body(sent))).statusCode).toBe(200);
    expectError(
      await publicCall("POST", itemUrl(sent, "contato-pesquisas"), await body(sent)),
      "DOCUMENT_ALREADY_REVOKED",
    );
    expect(await count()).toBe(1);
    // Not signed yet: nothing to revoke.
    const unsigned = await sentDocument();
    expectError(
      await publicCall("POST", itemUrl(unsigned, "contato-pesquisas"), await body(unsigned)),
      "DOCUMENT_NOT_REVOCABLE",
    );
    expect(await recordsOf(unsigned.documentId)).toHaveLength(0);
  });

  it("two at once make one record", async () => {
    const sent = await signedDocument();
    const payload = await body(sent);
    const [a, b] = await Promise.all([
      publicCall("POST", itemUrl(sent, "contato-pesquisas"), payload),
      publicCall("POST", itemUrl(sent, "contato-pesquisas"), payload),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.statusCode === 409)?.json().code).toBe("OPTIONAL_CONSENT_ALREADY_REVOKED");
    expect(await recordsOf(sent.documentId)).toHaveLength(1);
    expect((await actionsOf(sent.documentId)).filter((x) => x === "document.optional_consent_revoked")).toHaveLength(1);
  });

  it("asks for the code when the clinic requires it; another clinic's token is its own", async () => {
    const sent = await signedDocument(other);
    const base = await body(sent);
    expectError(await publicCall("POST", itemUrl(sent, "contato-pesquisas"), base), "SIGNING_OTP_REQUIRED");
    const asked = await publicCall("POST", `/api/public/sign/${sent.token}/code`);
    expect(asked.statusCode, asked.body).toBe(200);
    const codigo = await latestSigningCode({ app: ctx.app, database: ctx.database }, sent.patient.email ?? "");
    const response = await publicCall("POST", itemUrl(sent, "contato-pesquisas"), { ...base, codigo });
    expect(response.statusCode, response.body).toBe(200);
    const [record] = await recordsOf(sent.documentId);
    expect(record).toMatchObject({ tenant_id: other.tenantId, item_id: "contato-pesquisas", otp_verificado: true });
    // A made-up token is refused like any link.
    expect(
      (await publicCall("POST", `/api/public/sign/x${sent.token}/optional-consents/contato-pesquisas/revoke`, base))
        .statusCode,
    ).toBe(410);
  });
});

describe("staff record an item's revocation received in person", () => {
  it("records who and how; another clinic's ids are 404; a reader role is refused; bad bodies 400; two at once one", async () => {
    const sent = await signedDocument();
    const url = (item: string, id = sent.documentId) => `/api/documents/${id}/optional-consents/${item}/revocation`;
    expect((await staff(other, "POST", url("contato-pesquisas"), { meio: "presencial" })).statusCode).toBe(404);
    expect((await staff(clinic, "POST", url("contato-pesquisas"), { meio: "fax" })).statusCode).toBe(400);
    expect((await staff(clinic, "POST", url("Não"), { meio: "presencial" })).statusCode).toBe(400);
    expect(
      (await staff(clinic, "POST", url("contato-pesquisas", "nao-e-uuid"), { meio: "presencial" })).statusCode,
    ).toBe(400);
    const auditor = await newStaff(ctx.app, ctx.database, clinic.tenantId, "auditor");
    expectError(await staff(auditor, "POST", url("contato-pesquisas"), { meio: "presencial" }), "FORBIDDEN");
    expectError(await staff(clinic, "POST", url("nao-existe"), { meio: "presencial" }), "OPTIONAL_CONSENT_NOT_FOUND");
    expectError(
      await staff(clinic, "POST", url("imagem-divulgacao"), { meio: "presencial" }),
      "OPTIONAL_CONSENT_DECLINED",
    );
    expect(await recordsOf(sent.documentId)).toHaveLength(0);
    const [a, b] = await Promise.all([
      staff(clinic, "POST", url("imagem-prontuario"), { meio: "presencial", motivo: "Pediu na recepção" }),
      staff(clinic, "POST", url("imagem-prontuario"), { meio: "telefone" }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.statusCode === 409)?.json().code).toBe("OPTIONAL_CONSENT_ALREADY_REVOKED");
    const records = await recordsOf(sent.documentId);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      item_id: "imagem-prontuario",
      origem: "equipe",
      registrado_por: clinic.profileId,
      cpf: null,
    });
    expect((await documentRow(sent.documentId)).revogado_at).toBeNull();
    // Not signed yet, and another clinic's document: nothing written.
    const unsigned = await sentDocument();
    expectError(
      await staff(clinic, "POST", url("contato-pesquisas", unsigned.documentId), { meio: "presencial" }),
      "DOCUMENT_NOT_REVOCABLE",
    );
    const theirs = await signedDocument(other);
    expect(
      (await staff(clinic, "POST", url("contato-pesquisas", theirs.documentId), { meio: "presencial" })).statusCode,
    ).toBe(404);
    expect(await recordsOf(theirs.documentId)).toHaveLength(0);
    const sealed = await sealItemRecord(sent.documentId, "imagem-prontuario");
    const text = pdfText(await sealedBytes(sealed.pdf_file_id!));
    expect(text).toContain("Autorização revogada: Uso de imagem no prontuário");
    expect(text).toContain("registrado por");
  });
});
