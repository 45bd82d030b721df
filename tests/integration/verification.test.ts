/**
 * Public verification (/verificar/:code): what the code reveals (masked CPF, no content,
 * no IP) and the check of a dropped PDF (byte-identical? PAdES signature valid?).
 */
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contratoPartes, contratos, files } from "../../src/db/schema.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { finalizeSignedDocument } from "../../src/server/services/finalize/finalize-signed-document.js";
import { newVerificationCode } from "../../src/server/services/signing/verification-code.js";
import { deflateBomb, forgedXrefCount, manyByteRanges, repeatedStream } from "../fixtures/hostile-pdfs.js";
import { validCpf } from "../helpers/factories.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
const PATIENT = "Bruno Henrique Sá";

const call = (who: SignedIn | null, method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: who ? { cookie: who.cookie } : {} });
const postPdf = (code: string, body: Buffer, contentType = "application/pdf") =>
  ctx.app.inject({
    method: "POST",
    url: `/api/public/verify/${code}/pdf`,
    payload: body,
    headers: { "content-type": contentType },
  });

async function signedDocument(who: SignedIn, cpf: string): Promise<{ id: string; code: string }> {
  const specialties = (await call(who, "GET", "/api/templates/specialties")).json().items as string[];
  const template = await call(who, "POST", "/api/templates", {
    titulo: "TCLE Geral",
    especialidade: specialties[0],
    categoria: "Consentimento",
    estrutura: {
      title: "Termo — {{procedimento}}",
      introduction: "Eu, {{paciente_nome}}, CPF {{cpf_paciente}}, autorizo o procedimento {{procedimento}}.",
      sections: [{ id: "s1", type: "paragraph", title: "Riscos", content: "Conteúdo sigiloso do termo: dor e edema." }],
    },
  });
  const published = await call(who, "POST", `/api/templates/${template.json().id}/status`, { status: "published" });
  const patient = await call(who, "POST", "/api/patients", {
    nome: PATIENT,
    cpf,
    data_nascimento: "1985-01-02",
    email: "bruno@exemplo.com.br",
  });
  const created = await call(who, "POST", "/api/documents", {
    paciente_id: patient.json().id,
    template_version_id: published.json().versao_atual_id,
    titulo: "TCLE - Rinoplastia",
    procedimento: "Rinoplastia",
    data_procedimento: "2026-12-10",
    medico_responsavel_id: who.profileId,
    variaveis: {},
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const png = await QRCode.toBuffer("assinatura", { width: 280 });
  const stored = await ctx.app.services.storage.put(png);
  const db = ctx.database.db;
  const [file] = await db
    .insert(files)
    .values({
      tenant_id: who.tenantId,
      sha256: stored.sha256,
      size: stored.size,
      content_type: "image/png",
      nome: "assinatura.png",
    })
    .returning({ id: files.id });
  const [row] = await db.select().from(contratos).where(eq(contratos.id, id));
  const signedAt = new Date("2026-11-20T13:45:10Z");
  await db.insert(contratoPartes).values({
    tenant_id: who.tenantId,
    contrato_id: id,
    nome: PATIENT,
    cpf,
    email: "bruno@exemplo.com.br",
    assinou_em: signedAt,
    assinatura_file_id: file!.id,
    ip_address: "198.51.100.23",
    user_agent: "Mozilla/5.0 (Linux; Android 14)",
    conteudo_sha256: row!.conteudo_sha256,
  });
  const code = newVerificationCode();
  await db
    .update(contratos)
    .set({ status: "signed", signed_at: signedAt, verification_code: code })
    .where(eq(contratos.id, id));
  return { id, code };
}

function jobContext(): JobContext {
  const quiet = () => undefined;
  return {
    db: ctx.database.db,
    storage: ctx.app.services.storage,
    secretBox: ctx.app.services.secretBox,
    env: ctx.env,
    origin: "http://localhost:3000",
    log: { info: quiet, warn: quiet, error: quiet } as unknown as JobContext["log"],
  };
}

let id: string;
let code: string;
let cpf: string;
let sealed: Buffer;

beforeAll(async () => {
  ctx = await createTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "1000" } });
  clinic = await newClinic(ctx.app);
  cpf = validCpf();
  ({ id, code } = await signedDocument(clinic, cpf));
  await finalizeSignedDocument(jobContext(), { contratoId: id }, clinic.tenantId);
  const response = await call(clinic, "GET", `/api/documents/${id}/signed-pdf`);
  expect(response.statusCode).toBe(200);
  sealed = response.rawPayload;
});
afterAll(async () => {
  await ctx.close();
});

describe("GET /api/public/verify/:code", () => {
  it("tells the title, clinic, status, masked signers and hashes, without a session", async () => {
    const response = await call(null, "GET", `/api/public/verify/${code}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, id));
    const body = response.json();
    expect(body).toEqual({
      codigo: code,
      titulo: "TCLE - Rinoplastia",
      clinica: expect.any(String),
      status: "signed",
      criado_em: row!.created_at.toISOString(),
      assinaturas: [
        {
          nome: PATIENT,
          cpf: `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`,
          assinou_em: "2026-11-20T13:45:10.000Z",
          metodo_assinatura: "eletronica",
        },
      ],
      pdf_selado_sha256: createHash("sha256").update(sealed).digest("hex"),
      conteudo_sha256: row!.conteudo_sha256,
      recusado_em: null,
      revogado_em: null,
      registros: [],
    });
    expect(body.clinica.length).toBeGreaterThan(0);
    // Never the content, the IP, the user agent, the e-mail or the full CPF.
    expect(response.body).not.toContain(cpf);
    expect(response.body).not.toContain("198.51.100.23");
    expect(response.body).not.toContain("Android");
    expect(response.body).not.toContain("bruno@");
    expect(response.body).not.toContain("sigiloso");
  });

  it("accepts the code in lower case; an unknown or malformed code is 404 'Documento não encontrado'", async () => {
    expect((await call(null, "GET", `/api/public/verify/${code.toLowerCase()}`)).statusCode).toBe(200);
    for (const bad of ["ZZZZZZZZZZ", "x", "%27%20or%201%3D1", "A".repeat(100)]) {
      const response = await call(null, "GET", `/api/public/verify/${bad}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: "NOT_FOUND", message: "Documento não encontrado" });
    }
  });
});

describe("POST /api/public/verify/:code/pdf", () => {
  it("the sealed PDF is identical and its signature valid", async () => {
    const response = await postPdf(code, sealed);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(response.json()).toEqual({
      identico: true,
      assinatura_valida: true,
      selo_integro: true,
      certificado_reconhecido: true,
      sha256: createHash("sha256").update(sealed).digest("hex"),
      certificado: "Consentir — Selo da instância",
      certificado_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      // The evidence the file carries, checked from the file alone (decision 014).
      // This shortcut signs without a 'document.signed' event, and the verifier says so (cadeia_ok
      // false); tests/integration/offline-evidence.test.ts signs through the page: all true.
      evidencias: {
        conteudo_ok: true,
        cadeia_ok: false,
        eventos: expect.any(Number),
        certificado_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        ok: false,
        certificado_assunto: expect.stringContaining("Consentir"),
        linhas: expect.arrayContaining([
          { ok: true, text: "O certificado do selo é conhecido: selo desta instância Consentir." },
        ]),
        partes: [expect.objectContaining({ nivel: expect.any(String) })],
      },
    });
    // The report's lines for the page (✓ / ✗ / information), like `npm run verify` prints them.
    const lines = response.json().evidencias.linhas as { ok: boolean | null; text: string }[];
    expect(lines.find((line) => line.ok === false)?.text).toMatch(/Falta na cadeia o evento/);
    expect(lines[0]).toEqual({ ok: true, text: expect.stringMatching(/^Selo digital \(PAdES\) válido/) });
  });

  it("a copy with one byte changed in the middle is neither identical nor validly signed", async () => {
    const modified = Buffer.from(sealed);
    const middle = Math.floor(modified.length / 2);
    // The middle of the file may fall in /Contents; step back into the first signed range then.
    const contentsAt = modified.indexOf("/Contents <");
    const at = middle > contentsAt && middle < contentsAt + 10_000 ? Math.floor(contentsAt / 2) : middle;
    modified[at] = modified[at]! ^ 0x20;
    const response = await postPdf(code, modified);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ identico: false, assinatura_valida: false });
  });

  it("an unsigned PDF (the draft's own) is neither", async () => {
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, id));
    const [file] = await ctx.database.db.select().from(files).where(eq(files.id, row!.pdf_file_id!));
    const unsigned = (await ctx.app.services.storage.get(file!.sha256))!;
    const response = await postPdf(code, unsigned);
    expect(response.json()).toMatchObject({ identico: false, assinatura_valida: false, certificado: null });
  });

  it("unknown code 404, empty or non-PDF bodies 400, more than 10 MB 413", async () => {
    const unknown = await postPdf("ZZZZZZZZZZ", sealed);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("Documento não encontrado");
    expect((await postPdf(code, Buffer.alloc(0))).statusCode).toBe(400);
    const json = await ctx.app.inject({ method: "POST", url: `/api/public/verify/${code}/pdf`, payload: { pdf: "x" } });
    expect(json.statusCode).toBe(400);
    const huge = await postPdf(code, Buffer.alloc(10 * 1024 * 1024 + 1, 0x20));
    expect(huge.statusCode).toBe(413);
  });

  it("files made to stall a verifier are answered as not valid, in a PDF thread, while the API keeps answering (decision 049)", async () => {
    for (const [name, body] of [
      ["xref count", forgedXrefCount()],
      ["signatures", manyByteRanges(20_000, 4 * 1024 * 1024)],
      ["deflate bomb", deflateBomb()],
      ["repeated stream", repeatedStream(500)],
    ] as const) {
      const before = ctx.app.pdfPool.stats().completed;
      const verifying = postPdf(code, body);
      const health = await ctx.app.inject({ method: "GET", url: "/api/health" });
      expect(health.statusCode, name).toBe(200);
      const response = await verifying;
      // Read by a PDF thread (one more task done by the pool), not on the event loop.
      expect(ctx.app.pdfPool.stats().completed - before, name).toBe(1);
      expect(response.statusCode, `${name}: ${response.body.slice(0, 200)}`).toBe(200);
      expect(response.json(), name).toMatchObject({ identico: false, assinatura_valida: false, selo_integro: false });
    }
  });
});

describe("POST /api/public/verify-pdf (/verificar without a code)", () => {
  const postPdfOnly = (body: Buffer) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/public/verify-pdf",
      payload: body,
      headers: { "content-type": "application/pdf" },
    });

  it("reads the code from the file's evidence and checks it as /verificar/:code does", async () => {
    const response = await postPdfOnly(sealed);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      codigo: code,
      identico: true,
      assinatura_valida: true,
      sha256: createHash("sha256").update(sealed).digest("hex"),
    });
    expect(response.json()).toEqual({ codigo: code, ...(await postPdf(code, sealed)).json() });
  });

  it("a file without our evidence, or whose code this server does not know, is 404 with what to do", async () => {
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, id));
    const [file] = await ctx.database.db.select().from(files).where(eq(files.id, row!.pdf_file_id!));
    const unsigned = (await ctx.app.services.storage.get(file!.sha256))!;
    const draft = await postPdfOnly(unsigned);
    expect(draft.statusCode).toBe(404);
    expect(draft.json().message).toMatch(/não traz o código de verificação.*Digite o código/);

    // Sealed by another server: here, a document whose code is changed after sealing. The retention
    // trigger forbids that on a signed row (rightly), so the fixture turns triggers off for it alone.
    const elsewhere = await signedDocument(clinic, validCpf());
    await finalizeSignedDocument(jobContext(), { contratoId: elsewhere.id }, clinic.tenantId);
    const pdf = (await call(clinic, "GET", `/api/documents/${elsewhere.id}/signed-pdf`)).rawPayload;
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx
        .update(contratos)
        .set({ verification_code: newVerificationCode() })
        .where(eq(contratos.id, elsewhere.id));
    });
    const unknown = await postPdfOnly(pdf);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/não é de um documento deste servidor/);
  });

  it("empty or non-PDF bodies 400, more than 10 MB 413, a file made to stall the verifier a plain 404", async () => {
    expect((await postPdfOnly(Buffer.alloc(0))).statusCode).toBe(400);
    const json = await ctx.app.inject({ method: "POST", url: "/api/public/verify-pdf", payload: { pdf: "x" } });
    expect(json.statusCode).toBe(400);
    expect((await postPdfOnly(Buffer.alloc(10 * 1024 * 1024 + 1, 0x20))).statusCode).toBe(413);
    const bomb = await postPdfOnly(deflateBomb());
    expect(bomb.statusCode, bomb.body.slice(0, 200)).toBe(404);
    expect(bomb.json().message).toMatch(/não traz o código de verificação/);
  });
});

describe("rate limit", () => {
  it("limits the public routes per IP (env.RATE_LIMIT_PUBLIC_PER_MINUTE)", async () => {
    const limited = await createTestApp({ database: ctx.database, env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "3" } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await limited.app.inject({ method: "GET", url: `/api/public/verify/${code}` })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const post = await limited.app.inject({
        method: "POST",
        url: `/api/public/verify/${code}/pdf`,
        payload: sealed,
        headers: { "content-type": "application/pdf" },
      });
      expect(post.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
