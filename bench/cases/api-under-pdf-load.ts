/**
 * `api-under-pdf-load`: does the API stay quick while PDFs are drawn? Eight PDF renders
 * are kept in flight all the time through the app's real path — POST /api/documents/:id/pdf (the
 * draft drawn again in the PDF worker pool, stored, linked, audited; decision 012) — while one
 * client calls a cheap authenticated endpoint, the first page of GET /api/documents, one call after
 * another. Target: that call's p95 ≤ 50 ms while 8 PDFs render.
 *
 * Per database (PGlite always; PostgreSQL too with DATABASE_URL), on the in-process bench app:
 * - idle_*: the same call with nothing else running (the reference);
 * - median_ms / p95_ms / max: the call while the 8 renders run (BENCH_PDF_LOAD_S seconds, default 15);
 * - pdf_*: each render request's latency, how many finished, PDFs/s, and the pool's refusals (503,
 *   SERVER_BUSY: eight in flight fit in the default pool, one thread per core + 4 waiting per thread).
 */
import os from "node:os";
import type { BenchCase, BenchResult } from "../run.js";
import { round, summarize } from "../stats.js";
import { benchClinic, benchDatabases, type BenchTarget, startBenchTarget } from "../support/bench-app.js";

const IN_FLIGHT = 8;
const LOAD_S = Math.max(1, Number(process.env.BENCH_PDF_LOAD_S ?? 15));
const DOCUMENTS = 24;
const IDLE_WARMUP = 20;
const IDLE_SAMPLES = 200;
const LIST = "/api/documents";
const log = (message: string) => process.stderr.write(`  [api-under-pdf-load] ${message}\n`);

/** Valid CPFs for the patients (check digits computed). */
function cpf(n: number): string {
  const digits = String(300_000_000 + n)
    .slice(0, 9)
    .split("")
    .map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join("");
}

async function documentsOf(target: BenchTarget, cookie: string): Promise<string[]> {
  const staff = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${target.baseUrl}${path}`, {
      method,
      headers: { cookie, "content-type": "application/json", origin: target.baseUrl },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, any>>;
  };
  const me = (await staff("GET", "/api/auth/me")).profile as { id: string };
  const specialties = (await staff("GET", "/api/templates/specialties")).items as string[];
  const template = await staff("POST", "/api/templates", {
    titulo: "TCLE",
    especialidade: specialties[0],
    categoria: "Consentimento",
    estrutura: {
      title: "Termo de Consentimento — {{procedimento}}",
      introduction: "Eu, {{paciente_nome}}, CPF {{paciente_cpf}}, autorizo {{medico}} a realizar {{procedimento}}.",
      sections: [
        { id: "s1", type: "paragraph", title: "Riscos", content: "Riscos explicados: {{riscos}}" },
        {
          id: "s2",
          type: "paragraph",
          title: "Cuidados",
          content: "Repouso relativo por 48 horas, compressas frias e retorno em 7 dias.",
        },
        { id: "s3", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}" },
      ],
    },
  });
  const { versao_atual_id } = await staff("POST", `/api/templates/${template.id}/status`, { status: "published" });
  const ids: string[] = [];
  for (let i = 0; i < DOCUMENTS; i++) {
    const patient = await staff("POST", "/api/patients", { nome: `Paciente PDF ${i}`, cpf: cpf(i) });
    const document = await staff("POST", "/api/documents", {
      paciente_id: patient.id,
      template_version_id: versao_atual_id,
      titulo: `Termo ${i}`,
      procedimento: "Blefaroplastia superior",
      medico_responsavel_id: me.id,
      variaveis: { riscos_personalizados: "Hematoma, assimetria e cicatriz aparente" },
    });
    ids.push(document.id as string);
  }
  return ids;
}

async function timedGet(target: BenchTarget, cookie: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${target.baseUrl}${LIST}`, { headers: { cookie, "accept-encoding": "br, gzip" } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${LIST} → ${response.status}`);
  return performance.now() - started;
}

async function runOn(label: "pglite" | "postgres"): Promise<Record<string, number | string>> {
  const target = await startBenchTarget(label);
  try {
    const { cookie } = await benchClinic(target, 11);
    const ids = await documentsOf(target, cookie);

    for (let i = 0; i < IDLE_WARMUP; i++) await timedGet(target, cookie);
    const idleSamples: number[] = [];
    for (let i = 0; i < IDLE_SAMPLES; i++) idleSamples.push(await timedGet(target, cookie));
    const idle = summarize(idleSamples);

    // Eight renders in flight until the time is up; each lane draws another document when its PDF is done.
    const pdfMs: number[] = [];
    const refusals = { busy: 0, other: 0 };
    let stop = false;
    let next = 0;
    const lane = async () => {
      while (!stop) {
        const id = ids[next++ % ids.length]!;
        const started = performance.now();
        const response = await fetch(`${target.baseUrl}/api/documents/${id}/pdf`, {
          method: "POST",
          headers: { cookie, origin: target.baseUrl },
        });
        await response.arrayBuffer();
        if (response.status === 200) pdfMs.push(performance.now() - started);
        else if (response.status === 503) refusals.busy += 1;
        else refusals.other += 1;
      }
    };
    const lanes = Array.from({ length: IN_FLIGHT }, lane);
    // The probe starts once the pool is busy (the first renders are out of the way).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const loadedSamples: number[] = [];
    const started = performance.now();
    const renderedBefore = pdfMs.length;
    while (performance.now() - started < LOAD_S * 1000) loadedSamples.push(await timedGet(target, cookie));
    const seconds = (performance.now() - started) / 1000;
    const rendered = pdfMs.length - renderedBefore;
    stop = true;
    await Promise.all(lanes);
    const loaded = summarize(loadedSamples);
    const pdf = summarize(pdfMs);
    if (refusals.other > 0) throw new Error(`${refusals.other} pedido(s) de PDF falharam`);
    log(
      `${label}: GET ${LIST} parado p50 ${round(idle.median)} ms, p95 ${round(idle.p95)} ms; com ${IN_FLIGHT} PDFs p50 ${round(loaded.median)} ms, p95 ${round(loaded.p95)} ms, máx ${round(loaded.max)} ms (${loaded.n} chamadas; meta p95 ≤ 50 ms)`,
    );
    log(
      `${label}: ${rendered} PDFs em ${round(seconds, 1)} s (${round(rendered / seconds, 1)}/s), cada pedido p50 ${round(pdf.median)} ms, p95 ${round(pdf.p95)} ms; recusados (503) ${refusals.busy}; pool ${target.app.pdfPool.threads} threads`,
    );
    return {
      database: label,
      median_ms: round(loaded.median),
      p95_ms: round(loaded.p95),
      max_ms: round(loaded.max),
      calls: loaded.n,
      idle_median_ms: round(idle.median),
      idle_p95_ms: round(idle.p95),
      pdfs: rendered,
      pdfs_per_s: round(rendered / seconds, 1),
      pdf_median_ms: round(pdf.median),
      pdf_p95_ms: round(pdf.p95),
      pdf_refused: refusals.busy,
      pool_threads: target.app.pdfPool.threads,
    };
  } finally {
    await target.close();
  }
}

async function run(): Promise<BenchResult> {
  const results: Record<string, Record<string, number | string>> = {};
  const loadBefore = os
    .loadavg()
    .map((v) => round(v, 2))
    .join(" ");
  for (const label of benchDatabases()) results[label] = await runOn(label);
  const first = results.pglite!;
  return {
    median_ms: first.median_ms as number,
    p95_ms: first.p95_ms as number,
    target_p95_ms: 50,
    in_flight_pdfs: IN_FLIGHT,
    load_s: LOAD_S,
    load_before: loadBefore,
    load_after: os
      .loadavg()
      .map((v) => round(v, 2))
      .join(" "),
    ...Object.fromEntries(
      Object.entries(results).flatMap(([label, figures]) =>
        Object.entries(figures)
          .filter(([key]) => key !== "database")
          .map(([key, value]) => [`${label}_${key}`, value]),
      ),
    ),
  };
}

export default {
  name: "api-under-pdf-load",
  description: `GET /api/documents (1ª página) enquanto ${IN_FLIGHT} PDFs são desenhados pelo pool (POST /api/documents/:id/pdf): p95 ≤ 50 ms`,
  run,
} satisfies BenchCase;
