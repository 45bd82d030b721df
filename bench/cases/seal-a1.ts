/**
 * `seal-a1`: the signing work a final PDF gets when the professional has an ICP-Brasil A1
 * (decision 020): the professional's AD-RB signature (e-CPF with its 3-certificate
 * chain, sigPolicyId, incremental update) and then the instance seal over it, on the final sample
 * TCLE (rendered once, outside the loop: its cost is the `seal` case's). Keys are unlocked once
 * per process, as in production (KeyObjects built before the loop).
 *
 * Reported:
 * - median_ms / p95_ms: A1 signature + seal per document (target: median under 25 ms);
 * - a1_*, seal_*: each part; verify_*: checkAllPdfSignatures on the two-signature file;
 * - tsa_*: the A1 signature with a time-stamp from the local RFC 3161 authority (a loopback HTTP
 *   round trip plus its RSA signature: not part of the target, a real ACT adds the network).
 */
import QRCode from "qrcode";
import { renderDocumentPdf } from "../../src/pdf/document-pdf.js";
import { PADES_AD_RB_V1_3, policyForSigning } from "../../src/server/services/sealing/icp-brasil-policies.js";
import { generateSealCertificate } from "../../src/server/services/sealing/seal-certificate.js";
import { sealPdf } from "../../src/server/services/sealing/seal-pdf.js";
import { checkAllPdfSignatures } from "../../src/server/services/sealing/verify-pdf-signature.js";
import { QR_OPTIONS } from "../../src/server/services/finalize/final-pdf-input.js";
import { startFakeTsaServer } from "../../tests/fakes/tsa-server.js";
import { testPki } from "../../tests/fixtures/icp-brasil.js";
import { materialOf } from "../../tests/helpers/pdf-signatures.js";
import { sampleDocumentInput, sampleEvidence } from "../../tests/unit/pdf/fixtures.js";
import type { BenchCase, BenchResult } from "../run.js";
import { round, summarize } from "../stats.js";

const WARMUP = 15;
const SAMPLES = 100;
const TSA_SAMPLES = 30;
const log = (message: string) => process.stderr.write(`  [seal-a1] ${message}\n`);

async function finalPdf(sealName: string): Promise<Buffer> {
  const plain = sampleDocumentInput();
  const url = "https://consentir.exemplo.com.br/verificar/7K2M9QX4TB";
  const qrPngDataUrl = await QRCode.toDataURL(url, QR_OPTIONS);
  const { registry, attachments } = sampleEvidence(
    plain,
    { verificationCode: "7K2M9QX4TB", verificationUrl: url, qrPngDataUrl },
    { commonName: sealName, fingerprintSha256: "ab".repeat(32) },
  );
  return renderDocumentPdf({ ...plain, registry, attachments });
}

async function run(): Promise<BenchResult> {
  const pki = testPki();
  const professional = materialOf(pki.ecpf, [pki.ac, pki.root]);
  const seal = generateSealCertificate().material;
  const policy = policyForSigning(PADES_AD_RB_V1_3);
  const pdf = await finalPdf(seal.commonName);

  const check = checkAllPdfSignatures(await sealPdf(await sealPdf(pdf, professional, { policy }), seal));
  if (!check.valid || check.signatures.length !== 2)
    throw new Error(`as duas assinaturas não verificam: ${check.reason}`);

  const a1Ms: number[] = [];
  const sealMs: number[] = [];
  const verifyMs: number[] = [];
  const added: number[] = [];
  let bytes = 0;
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    let t = performance.now();
    const signed = await sealPdf(pdf, professional, { policy });
    const a = performance.now() - t;
    t = performance.now();
    const both = await sealPdf(signed, seal);
    const s = performance.now() - t;
    t = performance.now();
    checkAllPdfSignatures(both);
    const v = performance.now() - t;
    bytes = both.length;
    if (i < WARMUP) continue;
    a1Ms.push(a);
    sealMs.push(s);
    verifyMs.push(v);
    added.push(a + s);
  }

  const tsa = await startFakeTsaServer();
  const tsaMs: number[] = [];
  try {
    for (let i = 0; i < 5 + TSA_SAMPLES; i++) {
      const t = performance.now();
      await sealPdf(pdf, professional, { policy, timestamp: { urls: [tsa.url] } });
      if (i >= 5) tsaMs.push(performance.now() - t);
    }
  } finally {
    await tsa.close();
  }

  const a = summarize(added);
  const r = { a1: summarize(a1Ms), seal: summarize(sealMs), verify: summarize(verifyMs), tsa: summarize(tsaMs) };
  log(`PDF final ${pdf.length} bytes → ${bytes} bytes com as duas assinaturas`);
  log(
    `A1 (AD-RB, cadeia de 3) ${round(r.a1.median)} ms · selo por cima ${round(r.seal.median)} ms · verificar as duas ${round(r.verify.median)} ms`,
  );
  log(
    `A1 + selo: mediana ${round(a.median)} ms, p95 ${round(a.p95)} ms; A1 com carimbo da ACT local ${round(r.tsa.median)} ms`,
  );
  return {
    median_ms: round(a.median),
    p95_ms: round(a.p95),
    target_median_ms: 25,
    a1_median_ms: round(r.a1.median),
    a1_p95_ms: round(r.a1.p95),
    seal_median_ms: round(r.seal.median),
    seal_p95_ms: round(r.seal.p95),
    verify_median_ms: round(r.verify.median),
    tsa_a1_median_ms: round(r.tsa.median),
    tsa_a1_p95_ms: round(r.tsa.p95),
    bytes,
    samples: SAMPLES,
  };
}

const sealA1: BenchCase = {
  name: "seal-a1",
  description: "Assinatura AD-RB do profissional (A1, cadeia de 3) + selo da instância por cima (mediana < 25 ms)",
  run,
};

export default sealA1;
