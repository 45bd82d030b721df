/**
 * `seal`: what finalizing a signed document adds to the PDF of the sample TCLE (3 A4 pages):
 * the Signatures block with a drawn PNG, the "Registro de assinaturas" page (events, hashes, QR
 * code, the event chain, the two embedded evidence JSON files) and the PAdES seal (placeholder + CMS with the instance seal, node:crypto RSA-2048).
 *
 * The signature image is a drawn-signature-like 560×240 RGBA PNG (alpha channel included).
 *
 * Each sample renders, back to back, the plain document, the final document (signatures +
 * registry, QR code included) and seals the latter. Reported:
 * - median_ms / p95_ms: the added cost per document = (final render − plain render) + seal,
 *   per sample (target: median under 25 ms);
 * - render_plain_*, render_final_*, qr_*, seal_*: the parts;
 * - total_median_ms: QR + final render + seal (the whole job minus the database);
 * - unlock_ms: opening the PKCS#12 (once per process, not per document);
 * - pool_*: the same through the server's PDF worker pool (decision 012), as the finalize job
 *   runs it: plain render, and final render + seal in one task; pool_added_median_ms is the
 *   added cost measured that way.
 */
import { randomInt } from "node:crypto";
import QRCode from "qrcode";
import { type DocumentPdfInput, renderDocumentPdf } from "../../src/pdf/document-pdf.js";
import { sampleSignaturePng } from "../../src/pdf/sample-signature-png.js";
import { generateSealCertificate, unlockP12 } from "../../src/server/services/sealing/seal-certificate.js";
import { QR_OPTIONS } from "../../src/server/services/finalize/final-pdf-input.js";
import { sealPdf } from "../../src/server/services/sealing/seal-pdf.js";
import { createPdfPool } from "../../src/server/pdf-pool/pdf-pool.js";
import { verifyPdfSignature } from "../../src/server/services/sealing/verify-pdf-signature.js";
import { sampleDocumentInput, sampleEvidence } from "../../tests/unit/pdf/fixtures.js";
import type { BenchCase, BenchResult } from "../run.js";
import { round, summarize } from "../stats.js";

const WARMUP = 15;
const SAMPLES = 100;
const log = (message: string) => process.stderr.write(`  [seal] ${message}\n`);
const pages = (pdf: Buffer) => (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;

async function finalInput(
  plain: DocumentPdfInput,
  sealName: string,
): Promise<{ input: DocumentPdfInput; qrMs: number }> {
  const code = "7K2M9QX4TB";
  const url = `https://consentir.exemplo.com.br/verificar/${code}`;
  const started = performance.now();
  const qrPngDataUrl = await QRCode.toDataURL(url, QR_OPTIONS);
  const qrMs = performance.now() - started;
  const signedAt = new Date("2025-03-08T13:20:41Z");
  const ua =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
  const { registry, attachments } = sampleEvidence(
    plain,
    { verificationCode: code, verificationUrl: url, qrPngDataUrl },
    { commonName: sealName, fingerprintSha256: "ab".repeat(32) },
  );
  return {
    qrMs,
    input: {
      ...plain,
      signatures: [
        {
          nome: "João Sebastião Gonçalves",
          cpf: "52998224725",
          email: "joao.goncalves@example.com.br",
          telefone: "11987654321",
          assinou_em: signedAt,
          metodo: "eletronica",
          imagePng: SIGNATURE_PNG,
          ip: "203.0.113.7",
          userAgent: ua,
        },
      ],
      registry,
      attachments,
    },
  };
}

/**
 * A drawn signature as the canvas exports it: 560×240 RGBA at DPR 2, black anti-aliased strokes
 * on a transparent background (src/pdf/sample-signature-png.ts), so the alpha channel costs what
 * it costs in production.
 */
let SIGNATURE_PNG: Buffer;

async function run(): Promise<BenchResult> {
  SIGNATURE_PNG = sampleSignaturePng({ seed: randomInt(1, 1000) });
  const seal = generateSealCertificate();
  const unlockStarted = performance.now();
  const material = unlockP12(seal.p12, seal.passphrase);
  const unlockMs = performance.now() - unlockStarted;

  const plain = sampleDocumentInput();
  const first = await finalInput(plain, material.commonName);
  const firstRendered = await renderDocumentPdf(first.input);
  const firstSealed = await sealPdf(firstRendered, material);
  if (!verifyPdfSignature(firstSealed).valid) throw new Error("o PDF selado não verifica");
  const plainPages = pages(await renderDocumentPdf(plain));
  log(
    `documento ${plainPages} páginas; final ${pages(firstRendered)} páginas, ${firstSealed.length} bytes; abrir o PKCS#12: ${round(unlockMs)} ms`,
  );

  const plainMs: number[] = [];
  const finalMs: number[] = [];
  const qrMs: number[] = [];
  const sealMs: number[] = [];
  const added: number[] = [];
  const total: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    let t = performance.now();
    await renderDocumentPdf(plain);
    const p = performance.now() - t;
    const { input, qrMs: q } = await finalInput(plain, material.commonName);
    t = performance.now();
    const pdf = await renderDocumentPdf(input);
    const f = performance.now() - t;
    t = performance.now();
    await sealPdf(pdf, material);
    const s = performance.now() - t;
    if (i < WARMUP) continue;
    plainMs.push(p);
    finalMs.push(f);
    qrMs.push(q);
    sealMs.push(s);
    added.push(f - p + s);
    total.push(q + f + s);
  }
  const pool = createPdfPool();
  const poolAdded: number[] = [];
  const poolTotal: number[] = [];
  try {
    const { input } = await finalInput(plain, material.commonName);
    for (let i = 0; i < WARMUP * 2 + SAMPLES; i++) {
      let t = performance.now();
      await pool.render(plain);
      const p = performance.now() - t;
      t = performance.now();
      await pool.renderAndSeal(input, material, {});
      const fs = performance.now() - t;
      if (i < WARMUP * 2) continue;
      poolAdded.push(fs - p);
      poolTotal.push(fs);
    }
  } finally {
    await pool.close();
  }
  const pa = summarize(poolAdded);
  const pt = summarize(poolTotal);
  log(
    `pelo pool (${pool.threads} threads): acréscimo mediano ${round(pa.median)} ms, p95 ${round(pa.p95)} ms; render final + selo ${round(pt.median)} ms`,
  );
  const a = summarize(added);
  const r = {
    plain: summarize(plainMs),
    final: summarize(finalMs),
    qr: summarize(qrMs),
    seal: summarize(sealMs),
    total: summarize(total),
  };
  log(
    `render simples ${round(r.plain.median)} ms · render final ${round(r.final.median)} ms · QR ${round(r.qr.median)} ms · selo ${round(r.seal.median)} ms`,
  );
  log(
    `acréscimo (final − simples + selo): mediana ${round(a.median)} ms, p95 ${round(a.p95)} ms; total ${round(r.total.median)} ms`,
  );
  return {
    median_ms: round(a.median),
    p95_ms: round(a.p95),
    target_median_ms: 25,
    render_plain_median_ms: round(r.plain.median),
    render_final_median_ms: round(r.final.median),
    render_final_p95_ms: round(r.final.p95),
    qr_median_ms: round(r.qr.median),
    seal_median_ms: round(r.seal.median),
    seal_p95_ms: round(r.seal.p95),
    total_median_ms: round(r.total.median),
    unlock_ms: round(unlockMs),
    pool_added_median_ms: round(pa.median),
    pool_added_p95_ms: round(pa.p95),
    pool_final_and_seal_median_ms: round(pt.median),
    pool_threads: pool.threads,
    // Counted before sealing: the seal's incremental update writes the signed page object again.
    pages: pages(firstRendered),
    bytes: firstSealed.length,
    samples: SAMPLES,
  };
}

const seal: BenchCase = {
  name: "seal",
  description:
    "TCLE de 3 páginas: bloco de assinaturas + registro de assinaturas + selo PAdES (acréscimo mediano < 25 ms)",
  run,
};

export default seal;
