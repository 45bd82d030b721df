/**
 * qualified signatures end to end (decision 024): the responsible professional signs
 * the declaration with their own ICP-Brasil e-CPF, the patient signs by link, and the final PDF
 * carries two PAdES signatures — the professional's AD-RB with the whole chain, then the clinic's
 * e-CNPJ seal, AD-RB too. pdfsig and our verifier accept both; /verificar knows both keys; each
 * certificate use is audited; without the professional's certificate the choice is refused.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratoPartes, contratos, profiles } from "../../src/db/schema.js";
import { PADES_AD_RB_V1_3 } from "../../src/server/services/sealing/icp-brasil-policies.js";
import { checkAllPdfSignatures } from "../../src/server/services/sealing/verify-pdf-signature.js";
import { verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { issueCertificate, testPki } from "../fixtures/icp-brasil.js";
import { nodeEntryArgs } from "../helpers/node-entry.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, publishedTemplateVersion, signAsPatient, signingPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let documentId: string;
let sealed: Buffer;
const pki = testPki();
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-icp-"));

const staff = (method: "GET" | "POST" | "DELETE", url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: { cookie: clinic.cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const certificateBody = (pfx: Buffer, titular: "clinica" | "profissional") => ({
  arquivo_base64: pfx.toString("base64"),
  nome_arquivo: `${titular}.pfx`,
  alias: titular,
  senha: pki.ecpf.password,
  titular,
});

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  // The owner is the responsible professional; their profile carries the e-CPF's CPF.
  await ctx.database.db.update(profiles).set({ cpf: pki.cpf }).where(eq(profiles.id, clinic.profileId));
  expect((await staff("POST", "/api/certificates", certificateBody(pki.ecpf.pfx3des, "profissional"))).statusCode).toBe(
    201,
  );
  expect((await staff("POST", "/api/certificates", certificateBody(pki.ecnpj.pfx, "clinica"))).statusCode).toBe(201);

  const versionId = await publishedTemplateVersion(ctx.app, clinic);
  const patient = await signingPatient(ctx.app, clinic);
  documentId = await draftDocument(ctx.app, clinic, versionId, patient.id, "TCLE - Blefaroplastia", {
    com_certificado: true,
  });
  const sent = await staff("POST", `/api/documents/${documentId}/send`, {});
  expect(sent.statusCode, sent.body).toBe(200);
  const signed = await signAsPatient(ctx.app, ctx.database, tokenOf(sent.json().link), patient);
  expect(signed.response.statusCode, signed.response.body).toBe(200);
  await ctx.app.worker.tick();
  const download = await staff("GET", `/api/documents/${documentId}/signed-pdf`);
  expect(download.statusCode, download.body).toBe(200);
  sealed = download.rawPayload;
}, 120_000);
afterAll(async () => {
  await ctx.close();
});

describe("professional's ICP-Brasil signature, then the clinic's e-CNPJ seal", () => {
  it("the professional's party is 'ICP-Brasil' and names the certificate in its event", async () => {
    const [party] = await ctx.database.db
      .select()
      .from(contratoPartes)
      .where(and(eq(contratoPartes.contrato_id, documentId), eq(contratoPartes.papel, "profissional")));
    expect(party?.metodo_assinatura).toBe("ICP-Brasil");
    const events = await ctx.database.db.select().from(auditEvents).where(eq(auditEvents.tenant_id, clinic.tenantId));
    const partySigned = events.find(
      (e) => e.action === "document.party_signed" && (e.data as { papel?: string }).papel === "profissional",
    );
    expect(partySigned?.data).toMatchObject({
      metodo_assinatura: "ICP-Brasil",
      certificado_titular: `MARIA DA SILVA TESTE:${pki.cpf}`,
    });
    const uses = events
      .filter((e) => e.action === "certificate.used")
      .map((e) => (e.data as { finalidade: string }).finalidade);
    expect(uses.sort()).toEqual(["assinatura_profissional", "selo_clinica"]);
    const sealedEvent = events.find((e) => e.action === "document.sealed");
    expect(sealedEvent?.data).toMatchObject({ selo: "clinica", nivel: "AD-RB", profissional_nivel: "AD-RB" });
  });

  it("two PAdES signatures: AD-RB with the chain by the e-CPF, then AD-RB by the e-CNPJ over the whole file", () => {
    const report = checkAllPdfSignatures(sealed);
    expect(report.valid).toBe(true);
    expect(report.signatures.map((s) => s.signerCommonName)).toEqual([
      `MARIA DA SILVA TESTE:${pki.cpf}`,
      `CLINICA TESTE LTDA:${pki.cnpj}`,
    ]);
    for (const signature of report.signatures) {
      expect(signature).toMatchObject({ valid: true, policyOid: PADES_AD_RB_V1_3.oid, hasSigningTime: false });
      expect(signature.chainDer).toHaveLength(2);
    }
    expect(report.signatures[0]!.coversWholeFile).toBe(false);
    // The seal covers the whole file but the DSS appended after it (decision 053).
    expect(report.signatures[1]!.coversWholeFile).toBe(false);
    expect(report.afterSeal).toMatchObject({ ok: true, revisions: [{ kind: "dss" }] });
    const file = path.join(scratch, "icp.pdf");
    writeFileSync(file, sealed);
    let pdfsig: string;
    try {
      pdfsig = execFileSync("pdfsig", [file], { encoding: "utf8" });
    } catch (error) {
      pdfsig = (error as { stdout: string }).stdout;
    }
    expect(pdfsig.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(2);
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain("Assinatura digital do profissional com certificado");
    expect(text).toContain("ICP-Brasil AD-RB");
    // What was checked of the certificates, and what was not (decision 041): no official roots here.
    expect(text).toContain(
      "Certificado que se apresenta como ICP-Brasil; cadeia não conferida pelo servidor com as raízes oficiais do ITI; revogação não consultada",
    );
    expect(text).toContain("aplicada ao arquivo inteiro: certificado que se apresenta como ICP-Brasil");
    expect(text).toContain("o PDF final traz também a assinatura digital com o certificado do profissional");
    // No TSA_URL in this app: the seal's box says the times are only the server's clock (decision 060).
    expect(text).toContain("Sem carimbo do tempo: todas as horas deste registro são do relógio do servidor");
  });

  it("/verificar knows both keys; the offline verifier reports the professional's signature", async () => {
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    const response = await ctx.app.inject({
      method: "POST",
      url: `/api/public/verify/${row!.verification_code}/pdf`,
      payload: sealed,
      headers: { "content-type": "application/pdf" },
    });
    expect(response.statusCode, response.body).toBe(200);
    const verdict = response.json();
    expect(verdict).toMatchObject({
      identico: true,
      assinatura_valida: true,
      certificado_reconhecido: true,
      certificado: `CLINICA TESTE LTDA:${pki.cnpj}`,
    });
    expect(verdict.evidencias.ok).toBe(true);
    expect(verdict.evidencias.linhas.map((l: { text: string }) => l.text).join("\n")).toMatch(
      /O certificado da assinatura 1 é conhecido: certificado de profissional/,
    );
    const offline = verifySignedPdf(sealed);
    expect(
      offline.linhas.some(
        (l) =>
          l.ok === true &&
          /^Assinatura 1 de 2: “MARIA DA SILVA TESTE:52998224725”, política PA_PAdES_AD_RB_v1_3: válida/.test(l.text),
      ),
    ).toBe(true);
  });

  it("publishes, by the document's code, the certificates that signed it; --confiaveis with that list confirms the file offline", async () => {
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    const code = row!.verification_code!;
    const listed = await ctx.app.inject({ method: "GET", url: `/api/public/seal-certificates?codigo=${code}` });
    expect(listed.statusCode, listed.body).toBe(200);
    const subjects = (listed.json().certificados as { assunto: string; sha256: string }[]).map((c) => c.assunto);
    expect(subjects).toEqual(
      expect.arrayContaining([`CLINICA TESTE LTDA:${pki.cnpj}`, "MARIA DA SILVA TESTE:***.982.247-**"]),
    );
    expect(listed.body).not.toContain("52998224725");
    // Without the code, only the instance's seals: nothing of any clinic.
    const bare = await ctx.app.inject({ method: "GET", url: "/api/public/seal-certificates" });
    expect(bare.json().certificados.map((c: { assunto: string }) => c.assunto)).not.toContain(
      `CLINICA TESTE LTDA:${pki.cnpj}`,
    );
    for (const bad of ["NAOEXISTE99", "x'; drop table--", "%00"]) {
      const response = await ctx.app.inject({
        method: "GET",
        url: `/api/public/seal-certificates?codigo=${encodeURIComponent(bad)}`,
      });
      expect(response.statusCode, bad).toBe(404);
      expect(response.json().message).toBe("Documento não encontrado");
    }
    const listFile = path.join(scratch, "confiaveis-do-documento.json");
    writeFileSync(listFile, listed.body);
    const pdfFile = path.join(scratch, "confiaveis-do-documento.pdf");
    writeFileSync(pdfFile, sealed);
    let code0 = 0;
    try {
      execFileSync(
        process.execPath,
        [...nodeEntryArgs("src/server/cli/verify-pdf.ts"), pdfFile, "--confiaveis", listFile],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
    } catch (error) {
      code0 = (error as { status: number }).status;
    }
    expect(code0).toBe(0);
  });

  it("refuses the certificate choice to a professional without an active ICP-Brasil certificate", async () => {
    const other = await newClinic(ctx.app);
    const versionId = await publishedTemplateVersion(ctx.app, other);
    const patient = await signingPatient(ctx.app, other);
    const created = await ctx.app.inject({
      method: "POST",
      url: "/api/documents",
      headers: { cookie: other.cookie },
      payload: {
        paciente_id: patient.id,
        template_version_id: versionId,
        titulo: "TCLE",
        procedimento: "Blefaroplastia",
        medico_responsavel_id: other.profileId,
        variaveis: { riscos_personalizados: "Hematoma" },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const refused = await ctx.app.inject({
      method: "POST",
      url: `/api/documents/${created.json().id}/professional-signature`,
      headers: { cookie: other.cookie },
      payload: { senha: other.password, com_certificado: true },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: "PROFESSIONAL_CERTIFICATE_MISSING" });
  });
});

describe("what the final PDF says of the certificates (decision 041)", () => {
  /** A document the professional signs with the e-CPF, sent and signed by the patient; not yet sealed. */
  async function signedWithCertificate(): Promise<string> {
    const versionId = await publishedTemplateVersion(ctx.app, clinic);
    const patient = await signingPatient(ctx.app, clinic);
    const id = await draftDocument(ctx.app, clinic, versionId, patient.id, "TCLE - Rinoplastia", {
      com_certificado: true,
    });
    const sent = await staff("POST", `/api/documents/${id}/send`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    const signed = await signAsPatient(ctx.app, ctx.database, tokenOf(sent.json().link), patient);
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    return id;
  }
  const pdfText = (pdf: Buffer, name: string) => {
    const file = path.join(scratch, name);
    writeFileSync(file, pdf);
    return execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
  };

  it("with the official roots given (ICP_BRASIL_ROOTS_FILE), names the root the chains end at", async () => {
    const rootsFile = path.join(scratch, "raizes-oficiais.pem");
    writeFileSync(rootsFile, pki.root.pem);
    const rooted = await createTestApp({ database: ctx.database, env: { ICP_BRASIL_ROOTS_FILE: rootsFile } });
    try {
      const id = await signedWithCertificate();
      await rooted.app.worker.tick();
      const download = await staff("GET", `/api/documents/${id}/signed-pdf`);
      expect(download.statusCode, download.body).toBe(200);
      const text = pdfText(download.rawPayload, "raiz-oficial.pdf");
      expect(text).toContain(
        "cadeia conferida pelo servidor até a raiz oficial “Autoridade Certificadora Raiz de Teste v1”; revogação não consultada",
      );
      expect(text).not.toContain("cadeia não conferida");
      // Fundamento legal: both ICP-Brasil signatures are called qualified, with the law that says so.
      expect(text).toMatch(
        /Assinatura digital com certificado ICP- ?Brasil “[^”]+” \(do profissional; cadeia conferida[^)]+\); “[^”]+” \(selo da clínica; cadeia conferida/,
      );
      expect(text).toContain("assinatura eletrônica qualificada (Lei nº 14.063/2020, art. 4º, III)");
      expect(text).toContain("(art. 10, § 1º) presume verdadeira em relação ao signatário");
      expect(text).not.toContain("Documento assinado eletronicamente por meio de comprovação");

      // The offline verifier, given only the official roots, confirms the clinic's seal (decision 060).
      const pdfFile = path.join(scratch, "raiz-oficial-verificar.pdf");
      writeFileSync(pdfFile, download.rawPayload);
      const cli = (args: string[]) => {
        try {
          const out = execFileSync(process.execPath, [...nodeEntryArgs("src/server/cli/verify-pdf.ts"), ...args], {
            encoding: "utf8",
            stdio: ["ignore", "pipe", "pipe"],
          });
          return { code: 0, out };
        } catch (error) {
          const e = error as { status: number; stdout: string };
          return { code: e.status, out: e.stdout };
        }
      };
      // A chain to an official root says who holds the seal, not that it is this clinic's: anyone can
      // buy an e-CNPJ. So the roots alone leave the seal unconfirmed (3); with the document's list, 0.
      const withRoots = cli([pdfFile, "--raizes", rootsFile]);
      expect(withRoots.code, withRoots.out).toBe(3);
      expect(withRoots.out).toContain(
        "Certificado do selo ICP-Brasil: cadeia conferida, elo por elo, até a raiz oficial “Autoridade Certificadora Raiz de Teste v1”",
      );
      expect(withRoots.out).toContain("Certificado da assinatura 1 ICP-Brasil: cadeia conferida até a raiz oficial");
      // Without them it cannot confirm whose seal it is (3), and says how to.
      const [sealedRow] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, id));
      const listFile = path.join(scratch, "lista-raiz-oficial.json");
      writeFileSync(
        listFile,
        (
          await ctx.app.inject({
            method: "GET",
            url: `/api/public/seal-certificates?codigo=${sealedRow!.verification_code}`,
          })
        ).body,
      );
      const both = cli([pdfFile, "--raizes", rootsFile, "--confiaveis", listFile]);
      expect(both.code, both.out).toBe(0);
      expect(both.out).toContain("O certificado do selo é conhecido");
      // A fingerprint that is not the seal's is not overridden by the roots.
      const wrong = cli([pdfFile, "--raizes", rootsFile, "--certificado", "ab".repeat(32)]);
      expect(wrong.code, wrong.out).toBe(1);
      expect(wrong.out).toContain("O certificado do selo NÃO é o esperado");
      const bare = cli([pdfFile]);
      expect(bare.code, bare.out).toBe(3);
      expect(bare.out).toContain("informe as raízes oficiais (opção --raizes)");
      // Other roots: the chain is said not to reach them, and nothing is confirmed.
      const otherRoot = issueCertificate({
        subject: [
          { shortName: "C", value: "BR" },
          { shortName: "CN", value: "Outra Raiz" },
        ],
        ca: true,
      });
      const otherFile = path.join(scratch, "outra-raiz.pem");
      writeFileSync(otherFile, otherRoot.pem);
      const other = cli([pdfFile, "--raizes", otherFile]);
      expect(other.code, other.out).toBe(3);
      expect(other.out).toContain("A cadeia do certificado do selo não chega");
      expect(cli([pdfFile, "--raizes", path.join(scratch, "nao-existe.pem")]).code).toBe(2);
    } finally {
      await rooted.close();
    }
  });

  it("an app given a roots file it cannot read does not start", async () => {
    await expect(
      createTestApp({ database: ctx.database, env: { ICP_BRASIL_ROOTS_FILE: path.join(scratch, "nao-existe.pem") } }),
    ).rejects.toThrow(/ICP_BRASIL_ROOTS_FILE: não consegui ler o arquivo/);
  });

  it("when the chosen certificate is gone before sealing, nothing calls the signature ICP-Brasil", async () => {
    const id = await signedWithCertificate();
    const listed = await staff("GET", "/api/certificates");
    const ecpf = (listed.json().items as { id: string; titular: string; is_active: boolean }[]).find(
      (c) => c.titular === "profissional" && c.is_active,
    )!;
    expect((await staff("DELETE", `/api/certificates/${ecpf.id}`)).statusCode).toBe(200);
    await ctx.app.worker.tick();
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, id));
    expect(row!.icp_profissional_aplicada).toBe(false);
    const download = await staff("GET", `/api/documents/${id}/signed-pdf`);
    expect(download.statusCode, download.body).toBe(200);
    const text = pdfText(download.rawPayload, "icp-nao-aplicada.pdf");
    expect(text).toContain("Não aplicada: o certificado ICP-Brasil escolhido pelo profissional não está mais ativo");
    expect(text).not.toContain("(do profissional; cadeia");
    expect(text).toContain("Assinado Eletrônica Assinado no sistema com login e senha");
    expect(text).not.toMatch(/Assinado ICP-Brasil/);
    expect(checkAllPdfSignatures(download.rawPayload).signatures).toHaveLength(1);
    // The staff's list and /verificar show the method applied.
    const signatures = await staff("GET", `/api/documents/${id}/signatures`);
    expect(signatures.statusCode, signatures.body).toBe(200);
    const professional = (signatures.json().items as { papel: string; metodo_assinatura: string }[]).find(
      (p) => p.papel === "profissional",
    );
    expect(professional?.metodo_assinatura).toBe("eletronica");
    const verification = await ctx.app.inject({ method: "GET", url: `/api/public/verify/${row!.verification_code}` });
    expect(verification.statusCode, verification.body).toBe(200);
    expect(
      (verification.json().assinaturas as { metodo_assinatura: string }[]).map((p) => p.metodo_assinatura),
    ).toEqual(["eletronica", "eletronica"]);
    // The document sealed with the certificate still shows it.
    const [first] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    expect(first!.icp_profissional_aplicada).toBe(true);
    const kept = await ctx.app.inject({ method: "GET", url: `/api/public/verify/${first!.verification_code}` });
    expect((kept.json().assinaturas as { metodo_assinatura: string }[]).map((p) => p.metodo_assinatura)).toContain(
      "ICP-Brasil",
    );
  });
});
