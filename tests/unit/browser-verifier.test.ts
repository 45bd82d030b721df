/**
 * The browser verifier (decision 077) against `npm run verify`'s own check (verifySignedPdf) on
 * the same files: a genuine sealed PDF (professional's signature with its time-stamp, the seal,
 * DSS and a document time-stamp, as the finalize job makes it) and three tampered ones — a byte
 * changed inside the signed range, an update appended after the seal, a signature value that no
 * longer verifies — each with the same verdicts and, from the attachments on, the same lines (both
 * run checkEmbeddedEvidence); and hostile files answered quickly.
 */
import { createHash } from "node:crypto";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderDocumentPdf } from "../../src/pdf/document-pdf.js";
import { sampleDocumentInput, sampleEvidence } from "../unit/pdf/fixtures.js";
import { startFakeTsaServer, type FakeTsa } from "../fakes/tsa-server.js";
import { deflateBomb, manyByteRanges, repeatedStream } from "../fixtures/hostile-pdfs.js";
import { canonicalJson } from "../../src/shared/evidence/evidence.js";
import { addLongTermValidation } from "../../src/server/services/sealing/long-term-validation.js";
import { generateSealCertificate } from "../../src/server/services/sealing/seal-certificate.js";
import { sealPdf } from "../../src/server/services/sealing/seal-pdf.js";
import { type SignedPdfReport, verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { boundedInflate } from "../../src/shared/verification/inflate.js";
import { type BrowserReport, verifyPdfBytes } from "../../src/shared/verification/pdf-verifier.js";
import { evidenceLines, expectBrowserParity } from "../helpers/browser-parity.js";
import { byteChanged, sealSignatureChanged, updateAppended } from "../helpers/tampered-pdfs.js";

let tsa: FakeTsa;
let genuine: Buffer;
const instance = generateSealCertificate().material;
const professional = generateSealCertificate().material;

beforeAll(async () => {
  tsa = await startFakeTsaServer();
  // The content hash the evidence declares is that of the frozen model, as the finalize job writes it.
  // The sample's optional consents would need answers in its evidence, which the sample has not.
  const model = { ...sampleDocumentInput().model, optional_consents: [] };
  const input = sampleDocumentInput({
    model,
    contentSha256: createHash("sha256").update(canonicalJson(model)).digest("hex"),
  });
  const url = "https://consentir.exemplo.com.br/verificar/7K2M9QX4TB";
  const { registry, attachments } = sampleEvidence(
    input,
    { verificationCode: "7K2M9QX4TB", verificationUrl: url, qrPngDataUrl: await QRCode.toDataURL(url) },
    { commonName: instance.commonName, fingerprintSha256: instance.fingerprintSha256 },
  );
  const pdf = await renderDocumentPdf({ ...input, registry, attachments });
  const timestamp = { urls: [tsa.url], allowPrivateNetwork: true };
  const sealed = await sealPdf(await sealPdf(pdf, professional, { timestamp }), instance);
  genuine = await addLongTermValidation(sealed, { material: { certificates: [], crls: [] }, timestamp });
}, 60_000);
afterAll(async () => {
  await tsa?.close();
});

const browser = (pdf: Uint8Array) => verifyPdfBytes(pdf, { inflate: boundedInflate });
/** What both verifiers answer, side by side. */
const verdicts = (r: SignedPdfReport | BrowserReport) => ({
  ok: r.ok,
  selo_ok: r.selo_ok,
  conteudo_ok: r.conteudo_ok,
  cadeia_ok: r.cadeia_ok,
  eventos: r.eventos,
  certificado: r.certificado?.sha256 ?? null,
  dss: r.dss,
});
const failed = (r: { linhas: { ok: boolean | null; text: string }[] }) =>
  r.linhas.filter((l) => l.ok === false).map((l) => l.text);

describe("browser verifier, against the CLI's verdicts", () => {
  it("a genuine sealed PDF: everything holds in both, the same lines pass", async () => {
    const cli = verifySignedPdf(genuine);
    const local = await browser(genuine);
    expect(failed(cli)).toEqual([]);
    expect(cli.ok).toBe(true);
    expect(verdicts(local)).toEqual(verdicts(cli));
    expect(local.veredito).toBe("integro");
    expect(local.assinaturas.map((s) => [s.kind, s.valid, s.timestamp?.valid ?? null])).toEqual([
      ["assinatura", true, true],
      ["assinatura", true, null],
      ["carimbo_documento", true, true],
    ]);
    expect(local.documento).toEqual(cli.documento);
    // Every check the CLI passes on the seal, the content and the chain, the browser passes too.
    const checks = (r: { linhas: { ok: boolean | null; text: string }[] }) =>
      r.linhas.filter((l) => l.ok === true).map((l) => l.text);
    for (const text of checks(cli).filter((t) => !t.startsWith("Assinatura ") && !t.startsWith("O carimbo do tempo")))
      expect(checks(local)).toContain(text);
    // From the attachments on, line for line: the party's level and the reading record it lacks included.
    await expectBrowserParity(genuine, cli);
    expect(evidenceLines(local).map((l) => l.text)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^João Sebastião Gonçalves: assinatura eletrônica avançada/),
        "João Sebastião Gonçalves — Registro de leitura: não enviado pelo aparelho do signatário (nenhum tempo de leitura por seção foi registrado).",
      ]),
    );
  });

  it("a byte changed inside the signed range: the seal fails in both, said as an alteration", async () => {
    const tampered = byteChanged(genuine);
    const cli = verifySignedPdf(tampered);
    const local = await browser(tampered);
    expect(cli.selo_ok).toBe(false);
    expect(verdicts(local)).toEqual(verdicts(cli));
    expect(local.veredito).toBe("alterado");
    await expectBrowserParity(tampered, cli);
    expect(local.linhas[0]!.text).toBe(cli.linhas[0]!.text);
  });

  it("an update appended after the seal: an update after the seal, not a corrupted file", async () => {
    const appended = updateAppended(genuine);
    const cli = verifySignedPdf(appended);
    const local = await browser(appended);
    expect(cli.selo_ok).toBe(false);
    expect(cli.linhas[0]!.text).toContain("atualização incremental posterior ao selo");
    expect(verdicts(local)).toEqual(verdicts(cli));
    expect(local.veredito).toBe("atualizacao_posterior");
    await expectBrowserParity(appended, cli);
    expect(local.linhas[0]!.text).toContain("atualização acrescentada depois do selo");
    expect(local.linhas[0]!.text).not.toMatch(/corromp/);
  });

  it("a signature value that does not verify with its certificate: an invalid signature in both", async () => {
    const tampered = sealSignatureChanged(genuine);
    const cli = verifySignedPdf(tampered);
    const local = await browser(tampered);
    expect(cli.selo_ok).toBe(false);
    expect(verdicts(local)).toEqual(verdicts(cli));
    expect(local.veredito).toBe("assinatura_invalida");
    await expectBrowserParity(tampered, cli);
    expect(local.linhas[0]!.text).toBe(cli.linhas[0]!.text);
    expect(failed(local)).toContain(
      "Selo digital inválido: assinatura RSA não confere — o arquivo foi alterado depois de selado ou não é o original.",
    );
  });
});

describe("browser verifier, hostile files (decision 049)", () => {
  async function timed(pdf: Uint8Array) {
    const started = performance.now();
    const report = await browser(pdf);
    return { report, ms: performance.now() - started };
  }

  it("garbage, many signatures, a deflate bomb, a repeated stream: a failed verdict, quickly", async () => {
    const garbage = new Uint8Array(2 * 1024 * 1024).map((_, i) => (i * 2654435761) >>> 24);
    for (const pdf of [garbage, manyByteRanges(5_000), deflateBomb(64 * 1024 * 1024), repeatedStream(500)]) {
      const { report, ms } = await timed(pdf);
      expect(report.ok).toBe(false);
      expect(report.linhas.length).toBeGreaterThan(0);
      expect(ms).toBeLessThan(3_000);
    }
    expect((await browser(garbage)).veredito).toBe("sem_assinatura");
    expect((await browser(manyByteRanges(5_000))).linhas[0]!.text).toContain("mais de 8 assinaturas");
  });
});
