/**
 * "the right file in every hand": the signer downloads the sealed PDF from the signing
 * link once the finalize job made it (GET /api/public/sign/:token/signed-pdf), the page says
 * whether e-mail can leave this server, and the draft PDF is watermarked while the sealed one is not.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratos, files } from "../../src/db/schema.js";
import { AUDIT_ACTION_LABEL } from "../../src/shared/audit/labels.js";
import { ERRORS } from "../../src/shared/errors.js";
import { SIGNED_LINK_DAYS } from "../../src/shared/signing-rules.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import {
  publishedTemplateVersion,
  type SignablePatient,
  signableDocument,
  signAsPatient,
  tokenOf,
} from "../helpers/signing.js";
import { diagonalChars, pageCount, sortedChars } from "../helpers/pdf-text.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let versionId: string;
const PHONE_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const PHONE_IP = "198.51.100.23";
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-signer-pdf-"));

const staff = (method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: clinic.cookie } });
const asSigner = (method: "GET" | "HEAD", url: string) =>
  ctx.app.inject({ method, url, remoteAddress: PHONE_IP, headers: { "user-agent": PHONE_UA } });
const pdfUrl = (token: string) => `/api/public/sign/${token}/signed-pdf`;

function pdfFile(name: string, bytes: Buffer): string {
  const file = path.join(scratch, name);
  writeFileSync(file, bytes);
  return file;
}
const pdfText = (file: string) => execFileSync("pdftotext", [file, "-"]).toString("utf8");

const downloadsBySigner = (documentId: string) =>
  ctx.database.db
    .select()
    .from(auditEvents)
    .where(
      and(eq(auditEvents.entity_id, documentId), eq(auditEvents.action, "document.signed_pdf_downloaded_by_signer")),
    );

interface Sent {
  documentId: string;
  patient: SignablePatient;
  token: string;
}

async function sentDocument(): Promise<Sent> {
  const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
  const sent = await staff("POST", `/api/documents/${documentId}/send`, {});
  expect(sent.statusCode, sent.body).toBe(200);
  return { documentId, patient, token: tokenOf(sent.json().link as string) };
}

async function signed(): Promise<Sent> {
  const document = await sentDocument();
  const { response } = await signAsPatient(ctx.app, ctx.database, document.token, document.patient);
  expect(response.statusCode, response.body).toBe(200);
  return document;
}

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
});
afterAll(async () => {
  await ctx?.close();
});

describe("the signer's download of the sealed PDF", () => {
  let a: Sent;

  it("answers 404 before the signature and while the job has not sealed it; HEAD says the same without auditing", async () => {
    a = await sentDocument();
    const early = await asSigner("GET", pdfUrl(a.token));
    expect(early.statusCode).toBe(404);
    expect(early.json()).toMatchObject({
      code: "SIGNED_PDF_NOT_SIGNED",
      message: ERRORS.SIGNED_PDF_NOT_SIGNED.message,
    });
    expect(early.headers["cache-control"]).toBe("no-store");

    const { response } = await signAsPatient(ctx.app, ctx.database, a.token, a.patient);
    expect(response.statusCode, response.body).toBe(200);
    const preparing = await asSigner("GET", pdfUrl(a.token));
    expect(preparing.statusCode).toBe(404);
    expect(preparing.json()).toMatchObject({
      code: "SIGNED_PDF_PREPARING",
      message: "O documento assinado está sendo preparado. Tente novamente em instantes.",
    });
    expect((await asSigner("HEAD", pdfUrl(a.token))).statusCode).toBe(404);
    const page = (await asSigner("GET", `/api/public/sign/${a.token}`)).json();
    expect(page).toMatchObject({ estado: "signed", pdf_assinado_pronto: false });
    expect(await downloadsBySigner(a.documentId)).toHaveLength(0);
  });

  it("gives the sealed bytes once the job ran, under the staff's file name, no-store, audited with IP and user agent", async () => {
    await ctx.app.worker.tick();
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, a.documentId));
    expect(row?.signed_pdf_sha256).toBeTruthy();

    const head = await asSigner("HEAD", pdfUrl(a.token));
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload).toHaveLength(0);
    expect(await downloadsBySigner(a.documentId)).toHaveLength(0);
    expect((await asSigner("GET", `/api/public/sign/${a.token}`)).json()).toMatchObject({ pdf_assinado_pronto: true });

    const response = await asSigner("GET", pdfUrl(a.token));
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(createHash("sha256").update(response.rawPayload).digest("hex")).toBe(row!.signed_pdf_sha256);
    const staffCopy = await staff("GET", `/api/documents/${a.documentId}/signed-pdf`);
    expect(staffCopy.statusCode).toBe(200);
    expect(response.headers["content-disposition"]).toBe(staffCopy.headers["content-disposition"]);
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="TCLE___Blefaroplastia_assinado_\d{8}_\d{6}\.pdf"$/,
    );

    const events = await downloadsBySigner(a.documentId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor_profile_id: null, ip_address: PHONE_IP, user_agent: PHONE_UA });
    // Staff read it in the trail in words.
    const trail = (await staff("GET", `/api/documents/${a.documentId}`)).json().audit as {
      action: string;
      label: string;
    }[];
    expect(trail.find((e) => e.action === "document.signed_pdf_downloaded_by_signer")?.label).toBe(
      AUDIT_ACTION_LABEL["document.signed_pdf_downloaded_by_signer"],
    );
  });

  it("the sealed PDF carries no draft watermark; the draft PDF says RASCUNHO – sem validade", async () => {
    const sealed = await asSigner("GET", pdfUrl(a.token));
    expect(sealed.statusCode).toBe(200);
    const sealedFile = pdfFile("selado.pdf", sealed.rawPayload);
    expect(pdfText(sealedFile)).toContain("Registro de assinaturas");
    // (the registry may mention the draft by name — "rascunho gerado antes do envio" — but never the watermark)
    expect(pdfText(sealedFile)).not.toMatch(/sem validade/i);
    for (let page = 1; page <= pageCount(sealedFile); page++)
      expect(diagonalChars(sealedFile, page), `sealed page ${page}`).toBe("");

    // The draft of the same (signed) document: named and marked as a draft on every page.
    const draft = await staff("GET", `/api/documents/${a.documentId}/pdf`);
    expect(draft.statusCode).toBe(200);
    expect(draft.headers["content-disposition"]).toMatch(
      /^attachment; filename="TCLE___Blefaroplastia-rascunho_\d{8}_\d{6}\.pdf"$/,
    );
    const draftFile = pdfFile("rascunho.pdf", draft.rawPayload);
    // pdftotext cuts diagonal text into pieces: the plain text has them, -nodiag does not.
    expect(pdfText(draftFile).replace(/\s+/g, "")).toMatch(/R.*A.*S.*C.*U.*N.*H.*O/s);
    for (let page = 1; page <= pageCount(draftFile); page++) {
      expect(diagonalChars(draftFile, page), `draft page ${page}`).toBe(sortedChars("RASCUNHO – sem validade"));
    }
  });

  it(`serves the signed copy for ${SIGNED_LINK_DAYS} days after the signature, then the link is dead like any other (decision 021)`, async () => {
    const day = 24 * 60 * 60 * 1000;
    const ageTo = (days: number) =>
      ctx.database.db
        .update(contratos)
        .set({ signed_at: new Date(Date.now() - days * day) })
        .where(eq(contratos.id, a.documentId));
    await ageTo(SIGNED_LINK_DAYS - 1);
    expect((await asSigner("GET", `/api/public/sign/${a.token}`)).statusCode).toBe(200);
    expect((await asSigner("GET", pdfUrl(a.token))).statusCode).toBe(200);
    await ageTo(SIGNED_LINK_DAYS + 1);
    for (const response of [
      await asSigner("GET", `/api/public/sign/${a.token}`),
      await asSigner("GET", pdfUrl(a.token)),
      await asSigner("HEAD", pdfUrl(a.token)),
    ]) {
      expect(response.statusCode).toBe(410);
    }
    expect((await asSigner("GET", `/api/public/sign/${a.token}`)).json()).toMatchObject({
      code: "SIGNING_LINK_INVALID",
      message: ERRORS.SIGNING_LINK_INVALID.message,
    });
    // Staff keep the sealed PDF, and anyone with the code can still check a copy on /verificar.
    expect((await staff("GET", `/api/documents/${a.documentId}/signed-pdf`)).statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, a.documentId));
    expect(
      (await ctx.app.inject({ method: "GET", url: `/api/public/verify/${row!.verification_code}` })).statusCode,
    ).toBe(200);
    await ageTo(0);
  });

  it("each link yields its own document's PDF only", async () => {
    const b = await signed();
    await ctx.app.worker.tick();
    const fromA = await asSigner("GET", pdfUrl(a.token));
    const fromB = await asSigner("GET", pdfUrl(b.token));
    expect(fromB.statusCode).toBe(200);
    const [rowB] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, b.documentId));
    const hash = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
    expect(hash(fromB.rawPayload)).toBe(rowB!.signed_pdf_sha256);
    expect(hash(fromB.rawPayload)).not.toBe(hash(fromA.rawPayload));
    // A pending document's link gives nothing of the signed one.
    const c = await sentDocument();
    expect((await asSigner("GET", pdfUrl(c.token))).json()).toMatchObject({ code: "SIGNED_PDF_NOT_SIGNED" });
    expect(await downloadsBySigner(c.documentId)).toHaveLength(0);
  });

  it("answers 410 like the page for unknown, malformed and replaced links", async () => {
    for (const token of ["x".repeat(43), "nao-e-um-token", "A".repeat(44)]) {
      const response = await asSigner("GET", pdfUrl(token));
      expect(response.statusCode, token).toBe(410);
      expect(response.json()).toMatchObject({
        code: "SIGNING_LINK_INVALID",
        message: ERRORS.SIGNING_LINK_INVALID.message,
      });
      expect((await asSigner("HEAD", pdfUrl(token))).statusCode).toBe(410);
    }
    const replaced = await sentDocument();
    const resent = await staff("POST", `/api/documents/${replaced.documentId}/resend`, {});
    expect(resent.statusCode, resent.body).toBe(200);
    expect((await asSigner("GET", pdfUrl(replaced.token))).statusCode).toBe(410);
  });
});

describe("drafts stored before drafts were watermarked", () => {
  it("are drawn again on download (their name lacks the marker), watermarked and renamed", async () => {
    const { documentId } = await signableDocument(ctx.app, clinic, { versionId });
    const [before] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    expect(before?.pdf_file_id).toBeTruthy();
    // As a download made by an older version left it: same file row, the old-style name.
    await ctx.database.db
      .update(files)
      .set({ nome: "TCLE___Blefaroplastia_20250307_140409.pdf" })
      .where(eq(files.id, before!.pdf_file_id!));
    const response = await staff("GET", `/api/documents/${documentId}/pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-disposition"]).toMatch(/-rascunho_\d{8}_\d{6}\.pdf"$/);
    const file = pdfFile("antigo.pdf", response.rawPayload);
    expect(diagonalChars(file, 1)).toBe(sortedChars("RASCUNHO – sem validade"));
    const [after] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    expect(after?.pdf_file_id).not.toBe(before?.pdf_file_id);
  });
});

describe("what the signed page promises by e-mail", () => {
  it("says email_configurado false when SMTP_URL is not set (the copies wait in the outbox)", async () => {
    const document = await sentDocument();
    const page = (await asSigner("GET", `/api/public/sign/${document.token}`)).json();
    expect(page).toMatchObject({ estado: "pending", email_configurado: false, pdf_assinado_pronto: false });
  });

  it("says email_configurado true with SMTP_URL (nothing is sent in this test: no worker round)", async () => {
    const withSmtp = await createTestApp({ env: { SMTP_URL: "smtp://127.0.0.1:2525" } });
    try {
      const owner = await newClinic(withSmtp.app);
      const { documentId } = await signableDocument(withSmtp.app, owner, { database: withSmtp.database });
      const sent = await withSmtp.app.inject({
        method: "POST",
        url: `/api/documents/${documentId}/send`,
        payload: {},
        headers: { cookie: owner.cookie },
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const page = (
        await withSmtp.app.inject({ method: "GET", url: `/api/public/sign/${tokenOf(sent.json().link as string)}` })
      ).json();
      expect(page.email_configurado).toBe(true);
    } finally {
      await withSmtp.close();
    }
  });
});
