/**
 * "evidence anyone can verify without our server" (decision 014): a document signed
 * through the public page (with the e-mail code), finalized by the worker, downloaded by staff,
 * then checked with the verifier alone — the good file, a changed byte, a file re-made without
 * an event and re-sealed with the same seal, a file sealed by another certificate — and with the
 * CLI as a subprocess.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratos, profiles } from "../../src/db/schema.js";
import type { DocumentPdfInput } from "../../src/pdf/document-pdf.js";
import { renderDocumentPdf } from "../../src/pdf/document-pdf.js";
import { formatSaoPaulo } from "../../src/pdf/signature-registry.js";
import { loadFinalDocument, withRegistry } from "../../src/server/services/finalize/final-pdf-input.js";
import { instanceSeal } from "../../src/server/services/sealing/instance-seal.js";
import { embeddedFiles } from "../../src/server/services/sealing/pdf-embedded-files.js";
import { generateSealCertificate, unlockP12 } from "../../src/server/services/sealing/seal-certificate.js";
import { sealPdf } from "../../src/server/services/sealing/seal-pdf.js";
import { verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { buildDocumentChain, type DocumentChainEntry } from "../../src/shared/evidence/document-chain.js";
import { canonicalJson, type Evidence, EVIDENCE_FILE } from "../../src/shared/evidence/evidence.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion, signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";
import { nodeEntryArgs } from "../helpers/node-entry.js";

let ctx: TestContext;
let clinic: SignedIn;
let documentId: string;
let sealed: Buffer;
let fingerprint: string;
const IP = "198.51.100.20";
const UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36";
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-evidence-"));

const staff = (method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: clinic.cookie } });

/** Re-renders the final PDF from `input` with evidencias.json changed by `edit`, sealed by `seal`. */
async function remade(
  input: DocumentPdfInput,
  edit: (evidence: Evidence) => void,
  seal = instanceSeal(ctx.database.db, ctx.app.services.secretBox),
) {
  const attachments = input.attachments!.map((a) => {
    if (a.name !== EVIDENCE_FILE) return a;
    const evidence = JSON.parse(a.content) as Evidence;
    edit(evidence);
    return { ...a, content: canonicalJson(evidence) };
  });
  return sealPdf(await renderDocumentPdf({ ...input, attachments }), (await seal).material);
}

let finalInput: DocumentPdfInput;

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  const versionId = await publishedTemplateVersion(ctx.app, clinic);
  const signable = await signableDocument(ctx.app, clinic, { versionId });
  documentId = signable.documentId;
  const sent = await staff("POST", `/api/documents/${documentId}/send`, {});
  expect(sent.statusCode, sent.body).toBe(200);
  // A staff member reveals the link (recorded and printed in the registry).
  expect((await staff("GET", `/api/documents/${documentId}/link?via=copiar`)).statusCode).toBe(200);
  const signed = await signAsPatient(
    ctx.app,
    ctx.database,
    tokenOf(sent.json().link),
    signable.patient,
    {},
    { remoteAddress: IP, headers: { "user-agent": UA } },
  );
  expect(signed.response.statusCode, signed.response.body).toBe(200);
  // The worker runs the finalize job (drawn and sealed in the PDF pool).
  await ctx.app.worker.tick();
  const download = await staff("GET", `/api/documents/${documentId}/signed-pdf`);
  expect(download.statusCode, download.body).toBe(200);
  sealed = download.rawPayload;
  const seal = await instanceSeal(ctx.database.db, ctx.app.services.secretBox);
  fingerprint = seal.material.fingerprintSha256;
  const document = await loadFinalDocument(
    { db: ctx.database.db, storage: ctx.app.services.storage },
    clinic.tenantId,
    documentId,
  );
  finalInput = await withRegistry(document!, "https://consentir.exemplo.com.br", seal.material);
});
afterAll(async () => {
  await ctx.close();
});

describe("the sealed PDF carries its evidence", () => {
  it("embeds documento.json, byte for byte what the document's conteudo_sha256 hashes, and evidencias.json", async () => {
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    const files = embeddedFiles(sealed);
    expect(files.map((f) => f.name)).toEqual(["documento.json", "evidencias.json"]);
    expect(createHash("sha256").update(files[0]!.bytes).digest("hex")).toBe(row!.conteudo_sha256);
    const evidence = JSON.parse(files[1]!.bytes.toString("utf8")) as Evidence;
    expect(evidence.documento).toMatchObject({
      id: documentId,
      conteudo_sha256: row!.conteudo_sha256,
      codigo_verificacao: row!.verification_code,
    });
    // The professional signed the declaration before sending; then the patient, with the code.
    expect(evidence.partes).toEqual([
      // The helper signs as the professional with the password alone: simple (decision 042).
      expect.objectContaining({
        papel: "profissional",
        nivel: "simples",
        otp_verificado: false,
        tipo_assinatura: "senha",
        conteudo_sha256: row!.conteudo_sha256,
      }),
      expect.objectContaining({
        papel: "paciente",
        nivel: "avancada",
        otp_verificado: true,
        ip: IP,
        tipo_assinatura: "desenhada",
        conteudo_sha256: row!.conteudo_sha256,
      }),
    ]);
    expect(evidence.partes[1]!.codigo_enviado_para).toMatch(/\*\*\*@exemplo\.com\.br$/);
    // What ties that e-mail to the patient: on the record since it was created, by whom (decision 046).
    const [created] = await ctx.database.db
      .select({ at: auditEvents.created_at, actor: profiles.nome })
      .from(auditEvents)
      .innerJoin(profiles, eq(profiles.id, auditEvents.actor_profile_id))
      .where(
        and(
          eq(auditEvents.entity_type, "paciente"),
          eq(auditEvents.entity_id, row!.paciente_id),
          eq(auditEvents.action, "patient.created"),
        ),
      );
    expect(evidence.partes[1]!.contato_desde).toEqual({
      em: created!.at.toISOString(),
      por: created!.actor,
      como: "cadastro",
    });
    expect(evidence.partes[0]!.contato_desde).toBeNull();
    expect(evidence.partes[1]!.assinatura_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(evidence.eventos.map((e) => e.action)).toEqual(
      expect.arrayContaining(["document.sent", "document.link_accessed", "document.otp_verified", "document.signed"]),
    );
    expect(evidence.eventos.map((e) => e.seq)).toEqual(evidence.eventos.map((_, i) => i + 1));
    expect(evidence.cadeia.hash_final).toBe(evidence.eventos.at(-1)!.hash);

    const file = path.join(scratch, "bom.pdf");
    writeFileSync(file, sealed);
    expect(execFileSync("pdfdetach", ["-list", file], { encoding: "utf8" })).toMatch(
      /2 embedded files\s+1: documento\.json\s+2: evidencias\.json/,
    );
    let report: string;
    try {
      report = execFileSync("pdfsig", [file], { encoding: "utf8" });
    } catch (error) {
      report = (error as { stdout: string }).stdout;
    }
    expect(report).toContain("Signature Validation: Signature is Valid.");
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain(evidence.cadeia.hash_final);
    // The test app has no SMTP: the code went to the development outbox, and the registry says so
    // (decision 041); the professional's password signature is not called "avançada".
    expect(evidence.partes.map((p) => p.codigo_canal)).toEqual([null, "caixa_de_saida"]);
    expect(text).toContain(
      "Assinatura eletrônica simples (servidor de desenvolvimento) — o código de verificação ficou na caixa de saída deste servidor, sem envio real",
    );
    expect(text).not.toContain("enviado ao e-mail cadastrado");
    expect(text).toContain("Assinatura eletrônica do profissional por login e senha");
    expect(text).toContain(`Endereço IP ${IP} (porta de origem não registrada)`);
    expect(text).toContain("link copiado");
    expect(text).toContain(
      `Esse e-mail está no cadastro do paciente desde ${formatSaoPaulo(created!.at)} (criação do cadastro, por ${created!.actor}), segundo a trilha de auditoria da clínica lida ao selar este PDF.`,
    );
  });
});

describe("verifySignedPdf (no database)", () => {
  it("the good PDF: every check holds, with the expected certificate too", () => {
    const report = verifySignedPdf(sealed, { expectedFingerprint: fingerprint.toUpperCase().match(/../g)!.join(":") });
    expect(report.linhas.filter((l) => l.ok === false)).toEqual([]);
    expect(report).toMatchObject({
      ok: true,
      selo_ok: true,
      certificado_ok: true,
      conteudo_ok: true,
      cadeia_ok: true,
      partes: [{ nivel: "simples" }, { nivel: "avancada" }],
    });
    expect(report.certificado).toEqual({
      assunto: expect.stringContaining("CN=Consentir — Selo da instância"),
      sha256: fingerprint,
    });
    expect(report.eventos).toBeGreaterThanOrEqual(6);
  });

  it("one byte changed in the signed range: the seal fails", () => {
    const changed = Buffer.from(sealed);
    const at = 200; // inside the header objects, far before /Contents
    changed[at] = changed[at]! ^ 0x01;
    const report = verifySignedPdf(changed);
    expect(report.ok).toBe(false);
    expect(report.selo_ok).toBe(false);
  });

  it("re-made without an event and re-sealed with the same seal: the seal holds, the chain does not", async () => {
    const withoutEvent = await remade(finalInput, (evidence) => {
      evidence.eventos = evidence.eventos.filter((e) => e.action !== "document.link_accessed");
    });
    const report = verifySignedPdf(withoutEvent, { expectedFingerprint: fingerprint });
    expect(report.selo_ok).toBe(true);
    expect(report.certificado_ok).toBe(true);
    expect(report.cadeia_ok).toBe(false);
    expect(report.ok).toBe(false);
    expect(
      report.linhas
        .filter((l) => l.ok === false)
        .map((l) => l.text)
        .join("\n"),
    ).toMatch(/cadeia foi quebrada/);
  });

  it("re-made with the chain recomputed without the event: the final hash printed in the registry gives it away", async () => {
    const rebuilt = await remade(finalInput, (evidence) => {
      const kept = evidence.eventos.filter((e) => e.action !== "document.link_accessed");
      evidence.eventos = buildDocumentChain(
        kept.map(({ seq: _s, prev_hash: _p, hash: _h, ...event }: DocumentChainEntry) => event),
      );
      evidence.cadeia = { eventos: evidence.eventos.length, hash_final: evidence.eventos.at(-1)!.hash };
    });
    const report = verifySignedPdf(rebuilt);
    expect(report.selo_ok).toBe(true);
    expect(report.cadeia_ok).toBe(false);
    expect(report.ok).toBe(false);
    expect(report.linhas.find((l) => l.ok === false)?.text).toMatch(
      /hash final gravado nos metadados do PDF .* difere/,
    );
  });

  it("sealed by another certificate: fails when the expected fingerprint is given; otherwise shows the other fingerprint", async () => {
    const other = generateSealCertificate();
    const material = unlockP12(other.p12, other.passphrase);
    const foreign = await sealPdf(await renderDocumentPdf(finalInput), material);
    const strict = verifySignedPdf(foreign, { expectedFingerprint: fingerprint });
    expect(strict).toMatchObject({ ok: false, selo_ok: true, certificado_ok: false });
    const loose = verifySignedPdf(foreign);
    expect(loose.certificado?.sha256).toBe(material.fingerprintSha256);
    expect(loose.certificado?.sha256).not.toBe(fingerprint);
    expect(loose.linhas.some((l) => l.ok === null && /compare a acima com a publicada pela clínica/.test(l.text))).toBe(
      true,
    );
  });

  it("/verificar gives the same evidence checks for the uploaded file", async () => {
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    const response = await ctx.app.inject({
      method: "POST",
      url: `/api/public/verify/${row!.verification_code}/pdf`,
      payload: sealed,
      headers: { "content-type": "application/pdf" },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      identico: true,
      assinatura_valida: true,
      evidencias: { conteudo_ok: true, cadeia_ok: true, certificado_sha256: fingerprint },
    });
    expect(response.json().evidencias.eventos).toBeGreaterThanOrEqual(6);
    // What the page prints: the verdict, every line of the report (checked against the keys this
    // instance owns), the parties with their level.
    const report = verifySignedPdf(sealed, {
      trusted: [{ sha256: fingerprint, label: "selo desta instância Consentir" }],
      expectedCode: row!.verification_code!,
    });
    expect(response.json().evidencias).toMatchObject({
      ok: true,
      linhas: report.linhas,
      partes: report.partes,
      certificado_assunto: report.certificado!.assunto,
    });
    expect(report.linhas.filter((line) => line.ok === true).length).toBeGreaterThanOrEqual(8);
    expect(report.linhas).toContainEqual({
      ok: true,
      text: `As evidências são deste documento (código de verificação ${row!.verification_code}).`,
    });
    expect(report.partes.map((p) => p.descricao)).toEqual([
      "assinatura do profissional por login e senha (senha digitada de novo, sem código)",
      "assinatura eletrônica simples (servidor de desenvolvimento: código na caixa de saída, sem envio real)",
    ]);
  });

  it("/verificar refuses the evidence of another document, even one sealed by this very instance", async () => {
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    // Validly sealed with the instance seal, but its evidence names another document's code.
    const foreign = await remade(finalInput, (evidence) => {
      evidence.documento.codigo_verificacao = "ZZZZ9999ZZ";
    });
    const response = await ctx.app.inject({
      method: "POST",
      url: `/api/public/verify/${row!.verification_code}/pdf`,
      payload: foreign,
      headers: { "content-type": "application/pdf" },
    });
    expect(response.statusCode, response.body).toBe(200);
    const verdict = response.json();
    expect(verdict).toMatchObject({ identico: false, selo_integro: true, assinatura_valida: true });
    expect(verdict.evidencias.ok).toBe(false);
    expect(verdict.evidencias.linhas).toContainEqual({
      ok: false,
      text: `As evidências são de OUTRO documento (código ZZZZ9999ZZ, esperado ${row!.verification_code}): este arquivo não é deste documento.`,
    });
  });
});

describe("verification knows our keys", () => {
  /** A look-alike: a new self-signed key with exactly the instance seal's name. */
  async function lookAlike(): Promise<Buffer> {
    const other = generateSealCertificate();
    const material = unlockP12(other.p12, other.passphrase);
    expect(material.commonName).toBe(
      (await instanceSeal(ctx.database.db, ctx.app.services.secretBox)).material.commonName,
    );
    return sealPdf(await renderDocumentPdf(finalInput), material);
  }
  const verifyUpload = async (pdf: Buffer) => {
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    return ctx.app.inject({
      method: "POST",
      url: `/api/public/verify/${row!.verification_code}/pdf`,
      payload: pdf,
      headers: { "content-type": "application/pdf" },
    });
  };

  it("/verificar accepts the instance seal and prints its fingerprint", async () => {
    const response = await verifyUpload(sealed);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      assinatura_valida: true,
      selo_integro: true,
      certificado_reconhecido: true,
      certificado_sha256: fingerprint,
      evidencias: { ok: true },
    });
    expect(response.json().evidencias.linhas).toContainEqual({
      ok: true,
      text: "O certificado do selo é conhecido: selo desta instância Consentir.",
    });
  });

  it("/verificar refuses a look-alike seal with the same name: 'assinado por outro certificado'", async () => {
    const response = await verifyUpload(await lookAlike());
    expect(response.statusCode, response.body).toBe(200);
    const verdict = response.json();
    expect(verdict).toMatchObject({
      assinatura_valida: false,
      selo_integro: true,
      certificado_reconhecido: false,
      evidencias: { ok: false },
    });
    expect(verdict.certificado_sha256).not.toBe(fingerprint);
    expect(
      verdict.evidencias.linhas
        .filter((l: { ok: boolean | null }) => l.ok === false)
        .map((l: { text: string }) => l.text)
        .join("\n"),
    ).toMatch(/^Assinado por outro certificado/m);
  });

  it("publishes the instance seal fingerprints for offline checks", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/public/seal-certificates" });
    expect(response.statusCode).toBe(200);
    expect(response.json().certificados.map((c: { sha256: string }) => c.sha256)).toContain(fingerprint);
    expect(response.headers["cache-control"]).toBe("no-store");
  });
});

describe("npm run verify (CLI, subprocess)", () => {
  const cli = (args: string[]) => {
    try {
      return {
        code: 0,
        out: execFileSync(process.execPath, [...nodeEntryArgs("src/server/cli/verify-pdf.ts"), ...args], {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        }),
      };
    } catch (error) {
      const e = error as { status: number; stdout: string };
      return { code: e.status, out: e.stdout };
    }
  };

  it("exits 0 with a pt-BR report for the good file, 1 for another certificate than the expected one", async () => {
    const good = path.join(scratch, "cli-bom.pdf");
    writeFileSync(good, sealed);
    const ok = cli([good, "--certificado", fingerprint]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain("✓ Selo digital (PAdES) válido");
    expect(ok.out).toContain("✓ O certificado do selo é o esperado");
    expect(ok.out).toMatch(/✓ SHA-256 de documento\.json recalculado/);
    expect(ok.out).toMatch(/✓ Cadeia de \d+ eventos recalculada/);
    expect(ok.out).toContain("RESULTADO: tudo confere.");
    // The DSS appended after the seal (decision 053): the instance seal's certificate, its VRI.
    expect(ok.out).toContain(
      "• Dados de validação de longo prazo (DSS) no arquivo: 1 certificado(s), 0 lista(s) de revogação (LCR); entradas VRI para as assinaturas 1.",
    );
    expect(ok.out).toContain("depois dela há só dados de validação (DSS) e carimbos do tempo do documento");

    const wrong = cli([good, "--certificado", "00".repeat(32)]);
    expect(wrong.code).toBe(1);
    expect(wrong.out).toContain("✗ O certificado do selo NÃO é o esperado");
    expect(wrong.out).toContain("RESULTADO: FALHOU.");
  }, 60_000);

  it("with the published trust list: 0 for our seal, 1 for a look-alike; without any: 3, 'não foi confirmado'", async () => {
    const good = path.join(scratch, "cli-lista-bom.pdf");
    writeFileSync(good, sealed);
    const list = path.join(scratch, "confiaveis.json");
    writeFileSync(list, (await ctx.app.inject({ method: "GET", url: "/api/public/seal-certificates" })).body);
    const trusted = cli([good, "--confiaveis", list]);
    expect(trusted.code, trusted.out).toBe(0);
    expect(trusted.out).toMatch(
      /✓ O certificado do selo é conhecido: C=BR, O=Consentir, CN=Consentir — Selo da instância \(lista /,
    );

    const other = generateSealCertificate();
    const forged = path.join(scratch, "cli-lista-falso.pdf");
    writeFileSync(forged, await sealPdf(await renderDocumentPdf(finalInput), unlockP12(other.p12, other.passphrase)));
    const refused = cli([forged, "--confiaveis", list]);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain("✗ Assinado por outro certificado");

    const unconfirmed = cli([good]);
    expect(unconfirmed.code).toBe(3);
    expect(unconfirmed.out).toContain("RESULTADO: íntegro, mas o certificado do selo NÃO foi confirmado");
  }, 90_000);
});
