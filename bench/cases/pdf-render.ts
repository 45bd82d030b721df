/**
 * `pdf-render`: the sample TCLE (SAMPLE_TEMPLATE filled like a real document: 3 A4 pages) rendered
 * to PDF by our renderer (src/pdf/document-pdf.ts: DocumentModel → pdfmake), one document after
 * another in one process, after a warm-up. Target: median under 40 ms (DESIGN.md §6).
 *
 * When /usr/bin/chromium (or CHROMIUM_PATH) exists, the same document is also printed the way the
 * original app did (HTML → Chromium page.pdf(), A4, 20 px margins, header/footer templates), with a
 * new page per document in one running browser, and the figures come out as chromium_median_ms,
 * chromium_p95_ms and ratio = chromium median / ours (target ≥ 5).
 *
 * median_ms is the renderer itself, in this thread. pool_median_ms / pool_p95_ms are the same
 * document through the server's PDF worker pool (decision 012: one thread per core), one after
 * another, as a request sees it: the renderer plus the hop (structured clone in, bytes out).
 */
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { renderDocumentPdf, shortDocumentId, type DocumentPdfInput } from "../../src/pdf/document-pdf.js";
import { createPdfPool } from "../../src/server/pdf-pool/pdf-pool.js";
import type { Inline } from "../../src/shared/document-model/build-document-model.js";
import { sampleDocumentInput } from "../../tests/unit/pdf/fixtures.js";
import type { BenchCase, BenchResult } from "../run.js";
import { round, summarize } from "../stats.js";

const WARMUP = 15;
const SAMPLES = 100;
const CHROMIUM_WARMUP = 3;
const CHROMIUM_SAMPLES = 20;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const log = (message: string) => process.stderr.write(`  [pdf-render] ${message}\n`);

async function timeEach(samples: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await fn();
    out.push(performance.now() - started);
  }
  return out;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

const inlineHtml = (inlines: readonly Inline[]) =>
  inlines
    .map((i) =>
      i.kind === "text" ? escapeHtml(i.text).replace(/\n/g, "<br>") : `<mark>[${escapeHtml(i.name)}]</mark>`,
    )
    .join("");

/** The same document as the HTML a browser-printing renderer would print. */
function documentHtml(input: DocumentPdfInput): string {
  const { model, physician } = input;
  const sections = model.sections
    .map((section) => {
      const title = section.title ? `<h2>${escapeHtml(section.title)}</h2>` : "";
      const items = (section.items ?? []).map((item) => `<li>${inlineHtml(item)}</li>`).join("");
      const paragraphs = (section.paragraphs ?? []).map((p) => `<p>${inlineHtml(p)}</p>`).join("");
      switch (section.type) {
        case "bullet_list":
          return `${title}<ul>${items}</ul>`;
        case "numbered_list":
          return `${title}<ol>${items}</ol>`;
        case "patient_data":
          return `${title}<div class="box">${paragraphs}</div>`;
        case "signature":
          return `<section class="sig">${title}${paragraphs}<div class="doctor"><b>${escapeHtml(physician?.nome ?? "")}</b><br>CRM/SP ${escapeHtml(physician?.conselho_numero ?? "")} · RQE ${escapeHtml(physician?.rqe ?? "")} · ${escapeHtml(physician?.especialidade ?? "")}</div><div class="lines"><div>Paciente ou responsável legal</div><div>Profissional responsável</div></div></section>`;
        default:
          return `${title}${paragraphs}`;
      }
    })
    .join("");
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${escapeHtml(model.title)}</title><style>
    body { font-family: "DejaVu Sans", Roboto, Arial, sans-serif; font-size: 10pt; color: #1f2937; margin: 0 25pt; }
    h1 { font-size: 14.5pt; text-align: center; color: #1e3a5f; }
    h2 { font-size: 10.5pt; color: #1e3a5f; margin: 10pt 0 4pt; break-after: avoid; }
    p, li { text-align: justify; line-height: 1.3; margin: 0 0 5pt; }
    .box { background: #f5f7fa; border: 0.6pt solid #d1d5db; padding: 7pt 9pt; }
    .box p { text-align: left; margin: 0 0 5pt; }
    .sig { break-inside: avoid; } .doctor { background: #f5f7fa; padding: 6pt 8pt; margin-top: 10pt; }
    .lines { display: flex; gap: 30pt; margin-top: 40pt; } .lines div { border-top: 0.7pt solid #1f2937; width: 220pt; font-size: 8.5pt; font-weight: bold; }
    mark { background: #fde68a; color: #92400e; font-weight: bold; }
  </style></head><body><h1>${escapeHtml(model.title)}</h1><p>${inlineHtml(model.introduction)}</p>${sections}</body></html>`;
}

function headerTemplate(input: DocumentPdfInput): string {
  const c = input.clinic;
  return `<div style="font-size:7.5pt;width:100%;margin:0 40pt;font-family:sans-serif;color:#6b7280;border-bottom:0.8pt solid #1e3a5f;padding-bottom:4pt">
    <div style="font-size:10.5pt;font-weight:bold;color:#1e3a5f">${escapeHtml(c.razao_social ?? c.nome)}</div>
    <div>CNPJ ${escapeHtml(c.cnpj ?? "")} · CNES ${escapeHtml(c.cnes ?? "")}</div><div>${escapeHtml(c.endereco ?? "")} · Tel. ${escapeHtml(c.telefone ?? "")}</div></div>`;
}

function footerTemplate(input: DocumentPdfInput): string {
  return `<div style="font-size:7pt;width:100%;margin:0 40pt;font-family:sans-serif;display:flex;justify-content:space-between;border-top:0.5pt solid #d1d5db;padding-top:4pt">
    <div><b>Documento ${shortDocumentId(input.documentId)}</b><br>SHA-256: ${input.contentSha256}</div>
    <div><b>Página <span class="pageNumber"></span> de <span class="totalPages"></span></b></div></div>`;
}

async function chromiumFigures(input: DocumentPdfInput): Promise<number[] | null> {
  if (!existsSync(CHROMIUM)) {
    log(`${CHROMIUM} ausente: comparação com o Chromium omitida.`);
    return null;
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const html = documentHtml(input);
    const options = {
      format: "A4",
      margin: { top: "95px", bottom: "75px", left: "20px", right: "20px" },
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: headerTemplate(input),
      footerTemplate: footerTemplate(input),
    };
    const once = async () => {
      const page = await browser.newPage();
      try {
        await page.setContent(html, { waitUntil: "load" });
        const pdf = await page.pdf(options);
        if (pdf.subarray(0, 5).toString("latin1") !== "%PDF-") throw new Error("o Chromium não devolveu um PDF");
        return pdf;
      } finally {
        await page.close();
      }
    };
    const sample = await once();
    const pages = (sample.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    log(`chromium: ${pages} páginas, ${sample.length} bytes`);
    await timeEach(CHROMIUM_WARMUP, once);
    return await timeEach(CHROMIUM_SAMPLES, once);
  } finally {
    await browser.close();
  }
}

async function run(): Promise<BenchResult> {
  const input = sampleDocumentInput();
  const coldStarted = performance.now();
  const first = await renderDocumentPdf(input);
  const coldMs = performance.now() - coldStarted;
  const pages = (first.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  log(
    `primeiro documento (carrega fontes e aquece o JIT): ${round(coldMs)} ms, ${pages} páginas, ${first.length} bytes`,
  );
  if (pages < 3) throw new Error(`o documento de referência deveria ter 3 páginas ou mais, tem ${pages}`);

  await timeEach(WARMUP, () => renderDocumentPdf(input));
  const ours = summarize(await timeEach(SAMPLES, () => renderDocumentPdf(input)));
  log(`pdfmake: mediana ${round(ours.median)} ms, p95 ${round(ours.p95)} ms (${SAMPLES} documentos)`);

  const pool = createPdfPool();
  let pooled;
  try {
    await timeEach(WARMUP * 2, () => pool.render(input));
    pooled = summarize(await timeEach(SAMPLES, () => pool.render(input)));
  } finally {
    await pool.close();
  }
  log(`pelo pool (${pool.threads} threads): mediana ${round(pooled.median)} ms, p95 ${round(pooled.p95)} ms`);

  const chromiumSamples = await chromiumFigures(input);
  const result: BenchResult = {
    median_ms: round(ours.median),
    p95_ms: round(ours.p95),
    pages,
    bytes: first.length,
    cold_first_ms: round(coldMs),
    samples: SAMPLES,
    target_median_ms: 40,
    pool_median_ms: round(pooled.median),
    pool_p95_ms: round(pooled.p95),
    pool_threads: pool.threads,
    rss_mb: round(process.memoryUsage().rss / 2 ** 20),
  };
  if (chromiumSamples) {
    const theirs = summarize(chromiumSamples);
    log(`chromium: mediana ${round(theirs.median)} ms, p95 ${round(theirs.p95)} ms (${CHROMIUM_SAMPLES} documentos)`);
    result.chromium_median_ms = round(theirs.median);
    result.chromium_p95_ms = round(theirs.p95);
    result.ratio = round(theirs.median / ours.median, 2);
    result.target_ratio = 5;
  }
  return result;
}

const pdfRender: BenchCase = {
  name: "pdf-render",
  description:
    "TCLE de 3 páginas: modelo → PDF com pdfmake (mediana < 40 ms) e, com /usr/bin/chromium, HTML → page.pdf() (razão ≥ 5)",
  run,
};

export default pdfRender;
