/**
 * Revocation lists (decision 048): a certificate whose chain ends at an official root is looked up
 * in its authorities' lists at upload (a revoked one is refused, an unreadable list is a warning)
 * and again before each sealing (a revoked clinic certificate does not seal; the instance seal does,
 * and the registry says why). The lists come from a local repository the certificates point at.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { certificados, profiles, tenants } from "../../src/db/schema.js";
import { readDss, signatureBytes } from "../../src/server/services/sealing/dss.js";
import { PADES_AD_RC_V1_4 } from "../../src/server/services/sealing/icp-brasil-policies.js";
import { checkAllPdfSignatures } from "../../src/server/services/sealing/verify-pdf-signature.js";
import { verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { boundedInflate } from "../../src/shared/verification/inflate.js";
import { verifyPdfBytes } from "../../src/shared/verification/pdf-verifier.js";
import { startFakeTsaServer } from "../fakes/tsa-server.js";
import { expectBrowserParity } from "../helpers/browser-parity.js";
import { testPki } from "../fixtures/icp-brasil.js";
import { makeCrl, ocspResponder, revocationPki, type RevocationPki } from "../fixtures/crl.js";
import { startCrlServer, type CrlServer } from "../fakes/crl-server.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, publishedTemplateVersion, signAsPatient, signingPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

const CPF = "52998224725";
const CNPJ = "11222333000181";
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-lcr-"));
let server: CrlServer;
let pki: RevocationPki;
let ctx: TestContext;
let rootsFile: string;

beforeAll(async () => {
  server = await startCrlServer();
  pki = revocationPki(server.base, { cpf: CPF, cnpj: CNPJ });
  rootsFile = path.join(scratch, "raizes.pem");
  writeFileSync(rootsFile, pki.root.pem);
  ctx = await createTestApp({ env: { ICP_BRASIL_ROOTS_FILE: rootsFile } });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Both lists, nothing revoked unless `revoked` (default the e-CNPJ) is given. */
async function publishLists(revokedHolder = false, revoked = pki.ecnpj) {
  server.publish("/raiz.crl", await makeCrl({ issuer: pki.root }));
  server.publish(
    "/ac.crl",
    await makeCrl({
      issuer: pki.ac,
      revoked: revokedHolder ? [{ certificate: revoked, at: new Date(Date.now() - 3_600_000), reason: 1 }] : [],
    }),
  );
}

/** A clinic with the e-CNPJ's CNPJ. */
async function clinicWithCnpj(app = ctx.app): Promise<SignedIn> {
  const clinic = await newClinic(app);
  await ctx.database.db.update(tenants).set({ cnpj: CNPJ }).where(eq(tenants.id, clinic.tenantId));
  return clinic;
}

const upload = (who: SignedIn, app = ctx.app, certificate = pki.ecnpj) =>
  app.inject({
    method: "POST",
    url: "/api/certificates",
    headers: { cookie: who.cookie },
    payload: {
      arquivo_base64: certificate.pfx.toString("base64"),
      nome_arquivo: "ecnpj.pfx",
      alias: "e-CNPJ",
      senha: certificate.password,
      titular: "clinica",
    },
  });

async function auditData(tenantId: string, action: string) {
  const rows = await rawRows<{ data: Record<string, unknown> }>(
    ctx.database.db,
    sql`select data from audit_events where tenant_id = ${tenantId} and action = ${action} order by seq`,
  );
  return rows.map((row) => row.data);
}

describe("at upload", () => {
  it("takes a certificate its authorities' lists do not name, and says the root was checked", async () => {
    await publishLists();
    const clinic = await clinicWithCnpj();
    const response = await upload(clinic);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().avisos).toEqual([]);
    expect(response.json().certificado.raiz).toEqual({
      conferencia: "raiz_oficial",
      nome: "Autoridade Certificadora Raiz de Teste LCR",
    });
    const [uploaded] = await auditData(clinic.tenantId, "certificate.uploaded");
    expect(uploaded!.revogacao).toMatchObject({ status: "nao_revogado", consultado_em: expect.any(String) });
  });

  it("refuses a revoked certificate in Portuguese, keeps nothing but the refusal's event", async () => {
    await publishLists(true);
    const clinic = await clinicWithCnpj(ctx.app);
    // A fresh app on the same database: its list cache is empty (the lists above were just changed).
    const fresh = await createTestApp({ database: ctx.database, env: { ICP_BRASIL_ROOTS_FILE: rootsFile } });
    try {
      const response = await upload(clinic, fresh.app);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        code: "CERTIFICATE_INVALID",
        message: expect.stringMatching(
          /^O certificado foi revogado pela autoridade certificadora em \d\d\/\d\d\/\d{4} às \d\d:\d\d \(motivo: comprometimento da chave\): não pode assinar documentos\. Envie um certificado válido\.$/,
        ),
        details: { motivo: "revoked" },
      });
      expect(
        await ctx.database.db.select().from(certificados).where(eq(certificados.tenant_id, clinic.tenantId)),
      ).toEqual([]);
      expect(await auditData(clinic.tenantId, "certificate.upload_refused")).toEqual([
        expect.objectContaining({ motivo: "revoked" }),
      ]);
    } finally {
      await fresh.close();
    }
  });

  it("takes it with a warning when the list cannot be read now", async () => {
    server.fail("/ac.crl", 503);
    const clinic = await clinicWithCnpj();
    const fresh = await createTestApp({ database: ctx.database, env: { ICP_BRASIL_ROOTS_FILE: rootsFile } });
    try {
      const response = await upload(clinic, fresh.app);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().avisos).toEqual([
        expect.stringMatching(
          /^Não foi possível consultar agora a lista de revogação \(LCR\) da autoridade certificadora: .*respondeu HTTP 503\. A consulta é feita de novo antes de cada selagem\.$/,
        ),
      ]);
    } finally {
      await fresh.close();
      await publishLists();
    }
  });

  it("fetches nothing for a chain that does not end at an official root, nor with CRL_CHECK=false", async () => {
    await publishLists();
    const before = server.hits("/ac.crl");
    const settings: Record<string, string>[] = [{}, { ICP_BRASIL_ROOTS_FILE: rootsFile, CRL_CHECK: "false" }];
    for (const env of settings) {
      const other = await createTestApp({ database: ctx.database, env });
      try {
        const clinic = await clinicWithCnpj(other.app);
        expect((await upload(clinic, other.app)).statusCode).toBe(201);
        const [uploaded] = await auditData(clinic.tenantId, "certificate.uploaded");
        expect(uploaded!.revogacao).toEqual({ status: "nao_consultado" });
      } finally {
        await other.close();
      }
    }
    expect(server.hits("/ac.crl")).toBe(before);
  });
});

describe("before sealing", () => {
  /** A clinic with the e-CNPJ as its seal, and a document the patient has signed (not yet sealed). */
  async function signedDocument(certificate = pki.ecnpj): Promise<{ clinic: SignedIn; id: string }> {
    if (certificate === pki.ecnpj) await publishLists();
    const clinic = await clinicWithCnpj();
    expect((await upload(clinic, ctx.app, certificate)).statusCode).toBe(201);
    const versionId = await publishedTemplateVersion(ctx.app, clinic);
    const patient = await signingPatient(ctx.app, clinic);
    const id = await draftDocument(ctx.app, clinic, versionId, patient.id);
    const sent = await ctx.app.inject({
      method: "POST",
      url: `/api/documents/${id}/send`,
      headers: { cookie: clinic.cookie },
      payload: {},
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const signed = await signAsPatient(ctx.app, ctx.database, tokenOf(sent.json().link), patient);
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    return { clinic, id };
  }

  /** Seals with a worker of a fresh app (its own list cache), and returns the PDF's text and the seal kind. */
  async function sealWithFreshWorker(
    clinic: SignedIn,
    id: string,
    env: Record<string, string> = { ICP_BRASIL_ROOTS_FILE: rootsFile },
  ) {
    const worker = await createTestApp({ database: ctx.database, env });
    try {
      await worker.app.worker.tick();
      const download = await worker.app.inject({
        method: "GET",
        url: `/api/documents/${id}/signed-pdf`,
        headers: { cookie: clinic.cookie },
      });
      expect(download.statusCode, download.body).toBe(200);
      const file = path.join(scratch, `${id}.pdf`);
      writeFileSync(file, download.rawPayload);
      const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
      const [sealedEvent] = await auditData(clinic.tenantId, "document.sealed");
      return { text, selo: sealedEvent!.selo, pdf: download.rawPayload };
    } finally {
      await worker.close();
    }
  }

  it("a certificate still good seals, and the registry says the lists were read", async () => {
    const { clinic, id } = await signedDocument();
    const { text, selo, pdf } = await sealWithFreshWorker(clinic, id);
    expect(selo).toBe("clinica");
    // The lists read before sealing are in the PDF's DSS, byte for byte (decision 053).
    const dss = readDss(pdf)!;
    expect(dss.crls.map((c) => c.der.toString("hex")).sort()).toEqual(
      ["/raiz.crl", "/ac.crl"].map((p) => server.served(p)!.toString("hex")).sort(),
    );
    for (const der of [pki.ecnpj.der, pki.ac.der, pki.root.der])
      expect(dss.certs.some((c) => c.der.equals(der))).toBe(true);
    expect(text).toMatch(
      /cadeia conferida pelo servidor até a raiz oficial “Autoridade Certificadora Raiz de Teste LCR”; não revogado segundo as listas de revogação \(LCR\) da cadeia, consultadas pelo servidor em \d\d\/\d\d\/\d{4} às \d\d:\d\d \(horário de Brasília\); a do titular foi emitida em/,
    );
    expect(text).not.toContain("O certificado da clínica não foi usado");
  });

  it("a certificate revoked after upload does not seal: the instance seal does, and the registry says why", async () => {
    const { clinic, id } = await signedDocument();
    await publishLists(true);
    const { text, selo } = await sealWithFreshWorker(clinic, id);
    expect(selo).toBe("instancia");
    expect(text).toMatch(
      /O certificado da clínica não foi usado: o certificado foi revogado pela autoridade certificadora em \d\d\/\d\d\/\d{4} às \d\d:\d\d \(motivo: comprometimento da chave\)\./,
    );
    expect(text).toContain("Consentir — Selo da instância");
    const [row] = await ctx.database.db
      .select({ active: certificados.is_active })
      .from(certificados)
      .where(and(eq(certificados.tenant_id, clinic.tenantId)));
    expect(row!.active).toBe(true);
    await publishLists();
  });

  it("a professional's e-CPF revoked after they signed with it is not applied, and the registry says why", async () => {
    await publishLists();
    const clinic = await clinicWithCnpj();
    await ctx.database.db.update(profiles).set({ cpf: CPF }).where(eq(profiles.id, clinic.profileId));
    const mine = await ctx.app.inject({
      method: "POST",
      url: "/api/certificates",
      headers: { cookie: clinic.cookie },
      payload: {
        arquivo_base64: pki.ecpf.pfx.toString("base64"),
        nome_arquivo: "ecpf.pfx",
        alias: "e-CPF",
        senha: pki.ecpf.password,
        titular: "profissional",
      },
    });
    expect(mine.statusCode, mine.body).toBe(201);
    const versionId = await publishedTemplateVersion(ctx.app, clinic);
    const patient = await signingPatient(ctx.app, clinic);
    const id = await draftDocument(ctx.app, clinic, versionId, patient.id, "TCLE - Rinoplastia", {
      com_certificado: true,
    });
    const sent = await ctx.app.inject({
      method: "POST",
      url: `/api/documents/${id}/send`,
      headers: { cookie: clinic.cookie },
      payload: {},
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await signAsPatient(ctx.app, ctx.database, tokenOf(sent.json().link), patient)).response.statusCode).toBe(
      200,
    );
    await publishLists(true, pki.ecpf);
    const { text } = await sealWithFreshWorker(clinic, id);
    expect(text).toMatch(
      /Não aplicada: o certificado ICP-Brasil escolhido pelo profissional foi revogado pela autoridade certificadora em \d\d\/\d\d\/\d{4} às \d\d:\d\d \(motivo: comprometimento da chave\)\./,
    );
    expect(text).not.toContain("Assinatura PAdES com o certificado “MARIA DA SILVA TESTE");
    await publishLists();
  });

  it("with an accredited time-stamp authority too, the seal declares AD-RC and the file holds what it promises", async () => {
    const tsa = await startFakeTsaServer();
    // The authority's chain ends at another test root: both are "official" here (decisions 060, 081).
    const roots = path.join(scratch, "raizes-com-act.pem");
    writeFileSync(roots, pki.root.pem + testPki().root.pem);
    const { clinic, id } = await signedDocument();
    try {
      const { text, pdf } = await sealWithFreshWorker(clinic, id, {
        ICP_BRASIL_ROOTS_FILE: roots,
        TSA_URL: tsa.url,
        TSA_ICP_BRASIL: "true",
        TSA_TIMEOUT_MS: "3000",
      });
      const report = checkAllPdfSignatures(pdf);
      expect(report.valid).toBe(true);
      expect(report.signatures.map((s) => s.kind)).toEqual(["assinatura", "carimbo_documento"]);
      const seal = report.signatures[0]!;
      expect(seal.policyOid).toBe(PADES_AD_RC_V1_4.oid);
      expect(seal.policyHash!.equals(PADES_AD_RC_V1_4.hash)).toBe(true);
      expect(seal.timestamp).toMatchObject({ valid: true });
      // The seal's /VRI names its chain's lists, as AD-RC's PDF rules ask.
      const dss = readDss(pdf)!;
      const vri = dss.vri.get(signatureBytes(pdf)[0]!.vriKey)!;
      expect(vri.crls.length).toBe(2);
      const verified = verifySignedPdf(pdf);
      const promise = {
        ok: true,
        text: "Assinatura 1: a política PA_PAdES_AD_RC_v1_4 pede carimbo do tempo, cadeia e listas de revogação no arquivo (DSS/VRI) e carimbo do tempo do documento — presentes.",
      };
      expect(verified.linhas).toContainEqual(promise);
      // The browser verifier checks the same promise (decision 077).
      expect((await expectBrowserParity(pdf, verified)).linhas).toContainEqual(promise);
      expect(text).toContain("ICP-Brasil AD-RC (referências completas");

      // The same file cut before its document time-stamp: the declaration is no longer kept.
      const sealEnd = signatureBytes(pdf)[0]!.byteRange;
      const afterDss = pdf.indexOf("%%EOF", sealEnd[2] + sealEnd[3]) + "%%EOF".length;
      const cut = pdf.subarray(0, afterDss + (pdf[afterDss] === 0x0a ? 1 : 0));
      const cutReport = verifySignedPdf(Buffer.from(cut));
      expect(cutReport.ok).toBe(false);
      const broken = {
        ok: false,
        text: "Assinatura 1: declara a política PA_PAdES_AD_RC_v1_4, mas falta um carimbo do tempo do documento válido depois dela.",
      };
      expect(cutReport.linhas).toContainEqual(broken);
      const cutInBrowser = await verifyPdfBytes(new Uint8Array(cut), { inflate: boundedInflate });
      expect(cutInBrowser.ok).toBe(false);
      expect(cutInBrowser.linhas).toContainEqual(broken);
    } finally {
      await tsa.close();
    }
  });

  it("a holder whose OCSP responder answers: the answer is in the DSS and the seal's /VRI, and the registry says so", async () => {
    const withOcsp = revocationPki(server.base, { cpf: CPF, cnpj: CNPJ, ocsp: true });
    const roots = path.join(scratch, "raizes-ocsp.pem");
    writeFileSync(roots, withOcsp.root.pem);
    server.publish("/raiz.crl", await makeCrl({ issuer: withOcsp.root }));
    // Only the responder can answer for the holder (decision 082).
    server.fail("/ac.crl", 500);
    server.respond("/ocsp", ocspResponder({ issuer: withOcsp.ac }));
    try {
      const { clinic, id } = await signedDocument(withOcsp.ecnpj);
      const { text, selo, pdf } = await sealWithFreshWorker(clinic, id, { ICP_BRASIL_ROOTS_FILE: roots });
      expect(selo).toBe("clinica");
      const dss = readDss(pdf)!;
      expect(dss.ocsps).toHaveLength(1);
      expect(dss.crls.map((c) => c.der.toString("hex"))).toEqual([server.served("/raiz.crl")!.toString("hex")]);
      const vri = dss.vri.get(signatureBytes(pdf)[0]!.vriKey)!;
      expect(vri.ocsps).toEqual([dss.ocsps[0]!.num]);
      expect(vri.crls).toEqual([dss.crls[0]!.num]);
      expect(text).toMatch(
        /não revogado segundo as listas de revogação \(LCR\) e respostas OCSP da cadeia, consultadas pelo servidor em .*; a resposta OCSP sobre o titular foi emitida em \d\d\/\d\d\/\d{4}/,
      );
    } finally {
      await publishLists();
    }
  });

  it("an unreadable list does not stop the sealing: the registry says it was not looked up, and when it was tried", async () => {
    const { clinic, id } = await signedDocument();
    server.fail("/ac.crl", 500);
    const { text, selo, pdf } = await sealWithFreshWorker(clinic, id);
    expect(selo).toBe("clinica");
    // The holder's list was not read: the DSS has the chain but no list that did not answer.
    const dss = readDss(pdf)!;
    expect(dss.crls).toEqual([]);
    expect(dss.certs.some((c) => c.der.equals(pki.ecnpj.der))).toBe(true);
    expect(text).toMatch(
      /revogação não consultada: a lista de revogação em http:\/\/127\.0\.0\.1:\d+\/ac\.crl respondeu HTTP 500 \(tentativa do servidor em/,
    );
    await publishLists();
  });
});
