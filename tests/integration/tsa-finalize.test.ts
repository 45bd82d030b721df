/**
 * trusted time in the finalize job (decisions 020, 024): with TSA_URL set to an
 * accredited authority (TSA_ICP_BRASIL=true), the clinic's e-CNPJ seal on the final PDF declares
 * PA_PAdES_AD_RT and carries a signatureTimeStampToken over its own signature value; the registry
 * page says AD-RT. While the authority is down the job fails and is retried, and nothing is
 * stored: no final PDF that declares AD-RT without its stamp, ever. When the authority is back the
 * next run seals it, once.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contratos, jobs } from "../../src/db/schema.js";
import { PADES_AD_RT_V1_3 } from "../../src/server/services/sealing/icp-brasil-policies.js";
import { readDss } from "../../src/server/services/sealing/dss.js";
import { checkAllPdfSignatures } from "../../src/server/services/sealing/verify-pdf-signature.js";
import { type FakeTsa, startFakeTsaServer } from "../fakes/tsa-server.js";
import { testPki } from "../fixtures/icp-brasil.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, publishedTemplateVersion, signAsPatient, signingPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let tsa: FakeTsa;
let clinic: SignedIn;
let documentId: string;
const pki = testPki();
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-tsa-"));

const callAs = (on: TestContext, who: SignedIn) => (method: "GET" | "POST", url: string, payload?: unknown) =>
  on.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const staff = (method: "GET" | "POST", url: string, payload?: unknown) => callAs(ctx, clinic)(method, url, payload);

/** A clinic with its e-CNPJ whose patient signed a document: the finalize job is due. */
async function signedWithClinicCertificate(on: TestContext, who: SignedIn, title: string): Promise<string> {
  const call = callAs(on, who);
  const upload = await call("POST", "/api/certificates", {
    arquivo_base64: pki.ecnpj.pfx.toString("base64"),
    nome_arquivo: "clinica.pfx",
    alias: "e-CNPJ",
    senha: pki.ecpf.password,
    titular: "clinica",
  });
  expect(upload.statusCode, upload.body).toBe(201);
  const versionId = await publishedTemplateVersion(on.app, who);
  const patient = await signingPatient(on.app, who);
  const id = await draftDocument(on.app, who, versionId, patient.id, title);
  const sent = await call("POST", `/api/documents/${id}/send`, {});
  expect(sent.statusCode, sent.body).toBe(200);
  const signed = await signAsPatient(on.app, on.database, tokenOf(sent.json().link), patient);
  expect(signed.response.statusCode, signed.response.body).toBe(200);
  return id;
}

const finalizeJob = async () => {
  const [job] = await ctx.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, "document.finalize"), eq(jobs.tenant_id, clinic.tenantId)));
  return job;
};

beforeAll(async () => {
  tsa = await startFakeTsaServer();
  // The authority's chain is checked against the official roots before AD-RT is declared (decision 060).
  const rootsFile = path.join(scratch, "raizes.pem");
  writeFileSync(rootsFile, pki.root.pem);
  ctx = await createTestApp({
    env: { TSA_URL: tsa.url, TSA_ICP_BRASIL: "true", TSA_TIMEOUT_MS: "3000", ICP_BRASIL_ROOTS_FILE: rootsFile },
  });
  clinic = await newClinic(ctx.app);
  documentId = await signedWithClinicCertificate(ctx, clinic, "TCLE - Rinoplastia");
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await tsa?.close();
});

describe("finalize with a time-stamp authority", () => {
  it("while the authority fails, the job fails and waits for a retry; no final PDF is stored", async () => {
    tsa.mode = "http-500";
    const before = tsa.requests.length;
    await ctx.app.worker.tick();
    expect(tsa.requests.length).toBeGreaterThan(before);
    const job = await finalizeJob();
    expect(job).toMatchObject({ status: "pending", attempts: 1 });
    expect(job!.last_error).toBeTruthy();
    expect(job!.run_at.getTime()).toBeGreaterThan(Date.now());
    const [document] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    expect(document!.signed_pdf_file_id).toBeNull();
    const download = await staff("GET", `/api/documents/${documentId}/signed-pdf`);
    expect(download.statusCode).toBe(404);
  });

  it("when the authority is back, the retry seals once: AD-RT declared, a valid token over the seal, 'AD-RT' on the registry", async () => {
    tsa.mode = "ok";
    // The retry is due in 10 s; bring it forward instead of waiting.
    await ctx.database.db
      .update(jobs)
      .set({ run_at: new Date() })
      .where(and(eq(jobs.kind, "document.finalize"), eq(jobs.tenant_id, clinic.tenantId)));
    await ctx.app.worker.tick();
    const job = await finalizeJob();
    expect(job).toMatchObject({ status: "done", attempts: 2 });

    const download = await staff("GET", `/api/documents/${documentId}/signed-pdf`);
    expect(download.statusCode, download.body).toBe(200);
    const report = checkAllPdfSignatures(download.rawPayload);
    expect(report.valid).toBe(true);
    // The seal, then the document time-stamp over the file with its DSS (decision 053).
    expect(report.signatures.map((s) => s.kind)).toEqual(["assinatura", "carimbo_documento"]);
    expect(report.signatures[1]).toMatchObject({ valid: true, signerCommonName: "ACT Teste Consentir" });
    expect(report.afterSeal).toMatchObject({
      ok: true,
      revisions: [{ kind: "dss" }, { kind: "carimbo_documento" }, { kind: "dss" }],
    });
    const dss = readDss(download.rawPayload)!;
    expect(dss.certs.some((c) => c.der.equals(tsa.certificate.der))).toBe(true);
    expect(dss.vri.size).toBe(2);
    const seal = report.signatures[0]!;
    expect(seal.signerCommonName).toBe(`CLINICA TESTE LTDA:${pki.cnpj}`);
    expect(seal.policyOid).toBe(PADES_AD_RT_V1_3.oid);
    expect(seal.timestamp).toMatchObject({ valid: true });
    expect(seal.timestamp!.genTime!.getTime()).toBeGreaterThan(Date.now() - 60_000);

    const file = path.join(scratch, "ad-rt.pdf");
    writeFileSync(file, download.rawPayload);
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain("AD-RT");
    expect(text).not.toContain("Sem carimbo do tempo");
    expect(text).toContain(
      "Carimbo do tempo de “ACT Teste Consentir”: autoridade de carimbo do tempo (ACT) cuja cadeia o servidor conferiu até a raiz oficial “Autoridade Certificadora Raiz de Teste v1”",
    );

    // A further run changes nothing: the stored PDF stays the one sealed.
    const [document] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    await ctx.app.worker.tick();
    const [after] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    expect(after!.signed_pdf_sha256).toBe(document!.signed_pdf_sha256);
  });
});

describe("an authority the operator calls an ACT, unchecked", () => {
  it("without the official roots, no signature declares AD-RT and the registry says why", async () => {
    const unchecked = await createTestApp({
      database: ctx.database,
      env: { TSA_URL: tsa.url, TSA_ICP_BRASIL: "true", TSA_TIMEOUT_MS: "3000" },
    });
    try {
      const other = await newClinic(unchecked.app);
      const call = callAs(unchecked, other);
      const id = await signedWithClinicCertificate(unchecked, other, "TCLE - Blefaroplastia");
      await unchecked.app.worker.tick();
      const download = await call("GET", `/api/documents/${id}/signed-pdf`);
      expect(download.statusCode, download.body).toBe(200);
      const seal = checkAllPdfSignatures(download.rawPayload).signatures[0]!;
      expect(seal.policyOid).not.toBe(PADES_AD_RT_V1_3.oid);
      const file = path.join(scratch, "act-nao-conferida.pdf");
      writeFileSync(file, download.rawPayload);
      const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
      expect(text).not.toContain("AD-RT (");
      expect(text).toContain("com carimbo do tempo de autoridade não credenciada");
      // Without the roots the authority is not even asked to prove itself: it is named by its address.
      expect(text).toMatch(
        /Carimbo do tempo de “http:\/\/127\.0\.0\.1:\d+\/[^”]*”, que o servidor não confirmou como ACT credenciada na ICP-Brasil \(as raízes oficiais da ICP-Brasil não foram dadas ao servidor\)/,
      );
    } finally {
      await unchecked.close();
    }
  });
});
