/**
 * The final PDF: document + Signatures block + "Registro de assinaturas", PAdES-sealed
 * by the instance seal, stored, linked, audited and e-mailed; idempotent; staff download.
 * The signed state is written straight into the database (as the signing transaction leaves it),
 * so these tests do not depend on the signing page.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, gt, sql } from "drizzle-orm";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratoPartes, contratos, emailOutbox, files, sealCertificates } from "../../src/db/schema.js";
import { renderDocumentPdf } from "../../src/pdf/document-pdf.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { recordAuditEvent } from "../../src/server/services/audit/record-audit-event.js";
import { loadFinalDocument } from "../../src/server/services/finalize/final-pdf-input.js";
import { finalizeSignedDocument } from "../../src/server/services/finalize/finalize-signed-document.js";
import { loadOrCreateSeal } from "../../src/server/services/sealing/instance-seal.js";
import { readDss } from "../../src/server/services/sealing/dss.js";
import { checkAllPdfSignatures, verifyPdfSignature } from "../../src/server/services/sealing/verify-pdf-signature.js";
import { newVerificationCode } from "../../src/server/services/signing/verification-code.js";
import { withTenant } from "../../src/db/tenant-scope.js";
import { issueSigningToken } from "../../src/server/services/signing/signing-tokens.js";
import { formatCpf } from "../../src/shared/br/cpf.js";
import { validCpf } from "../helpers/factories.js";
import { outboxMails } from "../helpers/outbox.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
const ORIGIN = "https://consentir.exemplo.com.br";
const PATIENT = "Ana Luíza Conceição";
const PATIENT_EMAIL = "ana.luiza@exemplo.com.br";
const UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";

const call = (who: SignedIn | null, method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: who ? { cookie: who.cookie } : {} });

function jobContext(): JobContext {
  const quiet = () => undefined;
  return {
    db: ctx.database.db,
    storage: ctx.app.services.storage,
    secretBox: ctx.app.services.secretBox,
    env: ctx.env,
    origin: ORIGIN,
    log: { info: quiet, warn: quiet, error: quiet } as unknown as JobContext["log"],
  };
}

/** A draft document made through the API (template published, patient with CPF). */
async function newDocument(who: SignedIn, cpf: string, patientEmail: string | null = PATIENT_EMAIL): Promise<string> {
  const specialties = (await call(who, "GET", "/api/templates/specialties")).json().items as string[];
  const created = await call(who, "POST", "/api/templates", {
    titulo: "TCLE Geral",
    especialidade: specialties[0],
    categoria: "Consentimento",
    estrutura: {
      title: "Termo de Consentimento — {{procedimento}}",
      introduction: "Eu, {{paciente_nome}}, CPF {{cpf_paciente}}, autorizo {{medico}} a realizar {{procedimento}}.",
      sections: [
        { id: "s1", type: "paragraph", title: "Riscos", content: "Dor, edema e hematoma." },
        { id: "s2", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}" },
      ],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const published = await call(who, "POST", `/api/templates/${created.json().id}/status`, { status: "published" });
  expect(published.statusCode, published.body).toBe(200);
  const patient = await call(who, "POST", "/api/patients", {
    nome: PATIENT,
    cpf,
    data_nascimento: "1990-05-10",
    ...(patientEmail ? { email: patientEmail } : {}),
  });
  expect(patient.statusCode, patient.body).toBe(201);
  const document = await call(who, "POST", "/api/documents", {
    paciente_id: patient.json().id,
    template_version_id: published.json().versao_atual_id,
    titulo: "TCLE - Blefaroplastia",
    procedimento: "Blefaroplastia superior",
    data_procedimento: "2026-12-03",
    medico_responsavel_id: who.profileId,
    variaveis: {},
  });
  expect(document.statusCode, document.body).toBe(201);
  return document.json().id as string;
}

/** What the signing transaction leaves: the party with its drawn PNG, status signed, code, events. */
async function markSigned(who: SignedIn, contratoId: string, cpf: string, typedEmail = PATIENT_EMAIL): Promise<string> {
  const db = ctx.database.db;
  const png = await QRCode.toBuffer("assinatura desenhada", { width: 280 });
  const stored = await ctx.app.services.storage.put(png);
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
  const [document] = await db.select().from(contratos).where(eq(contratos.id, contratoId));
  const signedAt = new Date();
  await db.insert(contratoPartes).values({
    tenant_id: who.tenantId,
    contrato_id: contratoId,
    nome: PATIENT,
    cpf,
    email: typedEmail,
    telefone: "11987654321",
    assinou_em: signedAt,
    assinatura_file_id: file!.id,
    ip_address: "203.0.113.7",
    user_agent: UA,
    conteudo_sha256: document!.conteudo_sha256,
  });
  const code = newVerificationCode();
  await db
    .update(contratos)
    .set({ status: "signed", signed_at: signedAt, verification_code: code })
    .where(eq(contratos.id, contratoId));
  for (const action of ["document.sent", "document.viewed", "document.signed"]) {
    await recordAuditEvent(
      db,
      {
        tenantId: who.tenantId,
        actorProfileId: action === "document.sent" ? who.profileId : null,
        ip: "203.0.113.7",
        userAgent: UA,
      },
      // document.viewed as open-signing-page.ts writes it: the link signer's papel names who opened it.
      {
        action,
        entityType: "contrato",
        entityId: contratoId,
        ...(action === "document.viewed" ? { data: { via: "link", papel: "paciente" } } : {}),
      },
    );
  }
  return code;
}

function tool(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: "utf8" });
  } catch (error) {
    // pdfsig exits non-zero when the (self-signed) certificate is not trusted; the report is on stdout.
    const stdout = (error as { stdout?: string }).stdout;
    if (stdout) return stdout;
    throw error;
  }
}

const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-finalize-"));
function pdfFile(name: string, bytes: Buffer): string {
  const file = path.join(scratch, name);
  writeFileSync(file, bytes);
  return file;
}
const pageCount = (file: string) => Number(/Pages:\s+(\d+)/.exec(tool("pdfinfo", [file]))![1]);

let contratoId: string;
let code: string;
let cpf: string;
let patientToken: string;

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  cpf = validCpf();
  contratoId = await newDocument(clinic, cpf);
  // The patient's link as send-document.ts issues it: the signed copy tells how to revoke through it.
  patientToken = await withTenant(ctx.database.db, clinic.tenantId, (tx) =>
    issueSigningToken(tx, ctx.app.services.secretBox, {
      tenantId: clinic.tenantId,
      contratoId,
      expiresAt: new Date(Date.now() + 7 * 24 * 3600 * 1000),
      createdBy: clinic.profileId,
      now: new Date(),
    }),
  );
  code = await markSigned(clinic, contratoId, cpf);
});
afterAll(async () => {
  await ctx.close();
});

async function documentRow() {
  const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, contratoId));
  return row!;
}
async function outbox() {
  return outboxMails(ctx, null, eq(emailOutbox.tenant_id, clinic.tenantId));
}

describe("where the signers' copies go (decision 045)", () => {
  const copiesOf = async (id: string) => {
    const [row] = await ctx.database.db
      .select({ fileId: contratos.signed_pdf_file_id })
      .from(contratos)
      .where(eq(contratos.id, id));
    return (await outbox())
      .filter((m) => m.attachments.some((a) => a.file_id === row!.fileId))
      .map((m) => m.to_address)
      .sort();
  };

  it("to the patient's address on record, not to a different one typed when signing", async () => {
    const otherCpf = validCpf();
    const id = await newDocument(clinic, otherCpf);
    await markSigned(clinic, id, otherCpf, "ana.luiza@exenplo.com.br");
    await finalizeSignedDocument(jobContext(), { contratoId: id }, clinic.tenantId);
    expect(await copiesOf(id)).toEqual([PATIENT_EMAIL, clinic.email.toLowerCase()].sort());
    // No live link of the patient's (this one never had any): the clinic is the way to revoke.
    const [row] = await ctx.database.db
      .select({ fileId: contratos.signed_pdf_file_id })
      .from(contratos)
      .where(eq(contratos.id, id));
    const mail = (await outbox()).find(
      (m) => m.to_address === PATIENT_EMAIL && m.attachments.some((a) => a.file_id === row!.fileId),
    )!;
    expect(mail.text).toContain("revogar este consentimento a qualquer momento, sem custo: fale com");
    expect(mail.text).not.toContain("/assinar/");
  });

  it("to the typed address when the clinic has none for the patient", async () => {
    const otherCpf = validCpf();
    const id = await newDocument(clinic, otherCpf, null);
    await markSigned(clinic, id, otherCpf, "Ana.Digitado@Exemplo.com.br");
    await finalizeSignedDocument(jobContext(), { contratoId: id }, clinic.tenantId);
    expect(await copiesOf(id)).toEqual(["ana.digitado@exemplo.com.br", clinic.email.toLowerCase()].sort());
  });
});

describe("finalizeSignedDocument", () => {
  let sealed: Buffer;

  it("seals the final PDF, stores and links it, audits it and e-mails it to the patient and the physician", async () => {
    const before = await documentRow();
    expect(before.signed_pdf_file_id).toBeNull();
    await finalizeSignedDocument(jobContext(), { contratoId }, clinic.tenantId);

    const after = await documentRow();
    expect(after.signed_pdf_file_id).not.toBeNull();
    const [file] = await ctx.database.db.select().from(files).where(eq(files.id, after.signed_pdf_file_id!));
    expect(file).toMatchObject({ tenant_id: clinic.tenantId, content_type: "application/pdf" });
    expect(file!.nome).toMatch(/^TCLE___Blefaroplastia_assinado_\d{8}_\d{6}\.pdf$/);
    sealed = (await ctx.app.services.storage.get(file!.sha256))!;
    expect(sealed).not.toBeNull();
    expect(after.signed_pdf_sha256).toBe(createHash("sha256").update(sealed).digest("hex"));

    const sealedEvents = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, contratoId), eq(auditEvents.action, "document.sealed")));
    expect(sealedEvents).toHaveLength(1);
    expect(sealedEvents[0]!.data).toMatchObject({ file_id: file!.id, sha256: file!.sha256 });

    const mails = await outbox();
    const withPdf = mails.filter((m) => m.attachments.some((a) => a.file_id === file!.id));
    expect(withPdf.map((m) => m.to_address).sort()).toEqual([PATIENT_EMAIL, clinic.email.toLowerCase()].sort());
    for (const mail of withPdf) {
      expect(mail.subject).toBe("Documento assinado: TCLE - Blefaroplastia");
      expect(mail.attachments).toEqual([{ file_id: file!.id, filename: file!.nome, content_type: "application/pdf" }]);
      expect(mail.text).toContain(`${ORIGIN}/verificar/${code}`);
    }
    const patientMail = withPdf.find((m) => m.to_address === PATIENT_EMAIL)!.text;
    expect(patientMail).toContain("Olá, Ana!");
    // How to take it back (decision 056): the patient's own link and the clinic; not for the physician.
    expect(patientMail).toContain("você pode revogar este consentimento a qualquer momento, sem custo");
    expect(patientMail).toMatch(/até \d{2}\/\d{2}\/\d{4}, pelo mesmo link que você usou para assinar \(/);
    expect(patientMail).toContain(`(${ORIGIN}/assinar/${patientToken}), confirmando seus dados`);
    const physicianMail = withPdf.find((m) => m.to_address !== PATIENT_EMAIL)!.text;
    expect(physicianMail).not.toContain("revogar");
  });

  it("is a valid PAdES signature for poppler's pdfsig and for our CMS check", () => {
    const report = tool("pdfsig", [pdfFile("selado.pdf", sealed)]);
    expect(report).toContain("Signature Validation: Signature is Valid.");
    expect(report).toContain("Signature Type: ETSI.CAdES.detached");
    expect(report).toContain("Signing Hash Algorithm: SHA-256");
    expect(report).toContain("Consentir — Selo da instância");
    expect(verifyPdfSignature(sealed)).toEqual({ valid: true, signerCommonName: "Consentir — Selo da instância" });
  });

  it("the stored PDF carries the DSS after the seal (decision 053): the seal's certificate and its /VRI; qpdf finds it sound", () => {
    // The seal covers everything up to the DSS update, which is the only thing after it.
    expect(tool("pdfsig", [pdfFile("dss.pdf", sealed)])).toContain("Not total document signed");
    const all = checkAllPdfSignatures(sealed);
    expect(all).toMatchObject({ valid: true, sealIndex: 0, afterSeal: { ok: true, revisions: [{ kind: "dss" }] } });
    const dss = readDss(sealed)!;
    expect(dss.certs.map((c) => c.der.toString("hex"))).toEqual([all.signatures[0]!.certificateDer!.toString("hex")]);
    expect(dss.crls).toEqual([]);
    expect([...dss.vri.values()]).toEqual([{ certs: [dss.certs[0]!.num], crls: [], ocsps: [] }]);
    const qpdf = execFileSync("qpdf", ["--check", pdfFile("dss-qpdf.pdf", sealed)], { encoding: "utf8" });
    expect(qpdf).toContain("No syntax or stream encoding errors found");
  });

  it("has the document, the signatures and a last 'Registro de assinaturas' page with the code and the hashes", async () => {
    const file = pdfFile("texto.pdf", sealed);
    const text = tool("pdftotext", ["-layout", file, "-"]);
    const row = await documentRow();
    expect(text).toContain(PATIENT);
    expect(text).toContain("Registro de assinaturas");
    expect(text).toContain(code);
    expect(text).toContain(row.conteudo_sha256);
    expect(text).toContain(`${ORIGIN}/verificar/${code}`);
    expect(text).toContain("203.0.113.7");
    expect(text.replace(/\s+/g, " ")).toContain("Lei nº 14.063/2020");
    expect(text.replace(/\s+/g, " ")).toContain("Medida Provisória nº 2.200-2/2001 (art. 10, § 2º)");
    expect(text).toContain("Assinado");
    expect(text).toContain("Aberto pelo paciente");

    // Pages: the document with its Signatures block, then the registry (one or two pages: it now
    // lists what was checked per signer, the event chain, link views and contact changes).
    const total = pageCount(file);
    const document = await loadFinalDocument(jobContext(), clinic.tenantId, contratoId);
    const withoutRegistry = await renderDocumentPdf(document!.input);
    const documentPages = pageCount(pdfFile("sem-registro.pdf", withoutRegistry));
    expect(total).toBeGreaterThan(documentPages);
    expect(total).toBeLessThanOrEqual(documentPages + 2);
    const registryPages = tool("pdftotext", [
      "-f",
      String(documentPages + 1),
      "-l",
      String(total),
      "-layout",
      file,
      "-",
    ]);
    expect(registryPages).toContain("Registro de assinaturas");
    expect(registryPages).toContain(code);
    const firstPages = tool("pdftotext", ["-f", "1", "-l", String(documentPages), "-layout", file, "-"]);
    expect(firstPages).not.toContain("Registro de assinaturas");
    // The Signatures block (spec part 1 §2) on the document pages: full CPF, badges, evidence.
    expect(firstPages).toContain(`CPF: ${formatCpf(cpf)}`);
    expect(firstPages).toMatch(/Ana Luíza Conceição\s+Assinado\s+Eletrônica/);
    expect(firstPages).toContain("Endereço IP: 203.0.113.7");
    expect(firstPages).toContain(`E-mail: ${PATIENT_EMAIL}`);
  });

  it("a second run changes nothing and queues no more e-mails", async () => {
    const before = await documentRow();
    const mailsBefore = (await outbox()).length;
    const filesBefore = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(files)
      .where(eq(files.tenant_id, clinic.tenantId));
    await finalizeSignedDocument(jobContext(), { contratoId }, clinic.tenantId);
    const after = await documentRow();
    expect(after.signed_pdf_file_id).toBe(before.signed_pdf_file_id);
    expect(after.signed_pdf_sha256).toBe(before.signed_pdf_sha256);
    expect((await outbox()).length).toBe(mailsBefore);
    const filesAfter = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(files)
      .where(eq(files.tenant_id, clinic.tenantId));
    expect(filesAfter[0]!.n).toBe(filesBefore[0]!.n);
  });

  it("a re-run after sealing whose e-mails are missing queues them once", async () => {
    const row = await documentRow();
    await ctx.database.db.delete(emailOutbox).where(eq(emailOutbox.tenant_id, clinic.tenantId));
    await finalizeSignedDocument(jobContext(), { contratoId }, clinic.tenantId);
    await finalizeSignedDocument(jobContext(), { contratoId }, clinic.tenantId);
    const mails = (await outbox()).filter((m) => m.attachments.some((a) => a.file_id === row.signed_pdf_file_id));
    expect(mails).toHaveLength(2);
  });

  it("does nothing for a document that is not signed, or of another clinic", async () => {
    const draft = await newDocument(clinic, validCpf());
    await finalizeSignedDocument(jobContext(), { contratoId: draft }, clinic.tenantId);
    await finalizeSignedDocument(jobContext(), { contratoId }, other.tenantId);
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, draft));
    expect(row!.signed_pdf_file_id).toBeNull();
    expect(await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.tenant_id, other.tenantId))).toEqual(
      [],
    );
  });
});

describe("instance seal certificate", () => {
  it("is kept encrypted, and two first uses at the same time make only one", async () => {
    const [stored] = await ctx.database.db.select().from(sealCertificates).limit(1);
    expect(stored!.subject).toContain("CN=Consentir — Selo da instância");
    expect(stored!.p12_encrypted.includes(Buffer.from("Consentir"))).toBe(false);
    expect(JSON.parse(ctx.app.services.secretBox.open(stored!.p12_encrypted).toString("utf8"))).toMatchObject({
      p12_base64: expect.any(String),
      passphrase: expect.any(String),
    });

    // A moment when no stored certificate is valid any more: both callers must agree on one new one.
    const future = new Date("2100-01-01T00:00:00Z");
    try {
      const [a, b] = await Promise.all([
        loadOrCreateSeal(ctx.database.db, ctx.app.services.secretBox, future),
        loadOrCreateSeal(ctx.database.db, ctx.app.services.secretBox, future),
      ]);
      expect(a.id).toBe(b.id);
      expect(a.material.fingerprintSha256).toBe(b.material.fingerprintSha256);
      const made = await ctx.database.db.select().from(sealCertificates).where(gt(sealCertificates.not_after, future));
      expect(made).toHaveLength(1);
    } finally {
      await ctx.database.db.delete(sealCertificates).where(gt(sealCertificates.not_after, future));
    }
  });
});

describe("GET /api/documents/:id/signed-pdf", () => {
  it("gives staff the sealed bytes with the signed file name, and audits the download", async () => {
    const row = await documentRow();
    const response = await call(clinic, "GET", `/api/documents/${contratoId}/signed-pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="TCLE___Blefaroplastia_assinado_\d{8}_\d{6}\.pdf"$/,
    );
    expect(createHash("sha256").update(response.rawPayload).digest("hex")).toBe(row.signed_pdf_sha256);
    const downloads = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, contratoId), eq(auditEvents.action, "document.signed_pdf_downloaded")));
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.actor_profile_id).toBe(clinic.profileId);
  });

  it("answers 404 'PDF não disponível' before sealing, 404 for another clinic's document, 401 without a session", async () => {
    const draft = await newDocument(clinic, validCpf());
    const notYet = await call(clinic, "GET", `/api/documents/${draft}/signed-pdf`);
    expect(notYet.statusCode).toBe(404);
    expect(notYet.json()).toMatchObject({ code: "PDF_UNAVAILABLE", message: "PDF não disponível" });
    const foreign = await call(other, "GET", `/api/documents/${contratoId}/signed-pdf`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: "NOT_FOUND", message: "Documento não encontrado" });
    expect((await call(null, "GET", `/api/documents/${contratoId}/signed-pdf`)).statusCode).toBe(401);
  });
});
