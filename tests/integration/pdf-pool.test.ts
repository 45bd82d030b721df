/**
 * The PDF worker pool (decision 012): large renders no longer stall the event loop,
 * a full queue answers 503 + Retry-After in Portuguese without losing the document, and
 * background work waits for room instead of failing.
 */
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.js";
import { jobs } from "../../src/db/schema.js";
import { buildApp } from "../../src/server/app.js";
import { AppError } from "../../src/server/errors.js";
import { enqueueJob } from "../../src/server/jobs/enqueue-job.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { runDueJobs } from "../../src/server/jobs/run-due-jobs.js";
import { createPdfPool } from "../../src/server/pdf-pool/pdf-pool.js";
import { renderDocumentPdf } from "../../src/pdf/document-pdf.js";
import { generateSealCertificate } from "../../src/server/services/sealing/seal-certificate.js";
import { verifyPdfSignature } from "../../src/server/services/sealing/verify-pdf-signature.js";
import { ERRORS } from "../../src/shared/errors.js";
import { validCpf } from "../helpers/factories.js";
import { documentModelAtLimit, templateAtLimit } from "../helpers/large-template.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { openTestDatabase } from "../helpers/test-db.js";
import { testEnv } from "../helpers/test-env.js";
import { sampleDocumentInput } from "../unit/pdf/fixtures.js";

let database: Database;
const apps: FastifyInstance[] = [];

/**
 * Renders at the size limits queue behind each other here on purpose; with four suites and two
 * other processes on two cores, two of them took over the pool's 30 s task timeout (which counts
 * from submission). What these tests check is the pool's behaviour, not the renders' speed.
 */
const TASK_TIMEOUT_MS = 120_000;

async function appWith(pdfPool: { threads?: number; maxQueue?: number } = {}) {
  const app = await buildApp({
    env: testEnv(),
    database,
    logger: false,
    pdfPool: { taskTimeoutMs: TASK_TIMEOUT_MS, ...pdfPool },
  });
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  // PGlite in its own thread, as the app runs it (decision 038): on the test's thread its queries
  // would hold the very event loop these tests watch.
  database = await openTestDatabase({ thread: true });
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await database.close();
});

const call = (app: FastifyInstance, who: SignedIn, method: "GET" | "POST", url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });

/** A clinic with a published template exactly at the size limits and one patient. */
async function clinicWithLargeTemplate(app: FastifyInstance) {
  const clinic = await newClinic(app);
  const specialties = (await call(app, clinic, "GET", "/api/templates/specialties")).json().items as string[];
  const created = await call(app, clinic, "POST", "/api/templates", {
    titulo: "TCLE completo",
    especialidade: specialties[0],
    categoria: "Consentimento",
    estrutura: templateAtLimit(),
  });
  expect(created.statusCode, created.body).toBe(201);
  const published = await call(app, clinic, "POST", `/api/templates/${created.json().id}/status`, {
    status: "published",
  });
  expect(published.statusCode, published.body).toBe(200);
  const patient = await call(app, clinic, "POST", "/api/patients", {
    nome: "Ana Luíza Conceição",
    cpf: validCpf(),
    data_nascimento: "1990-05-10",
  });
  expect(patient.statusCode, patient.body).toBe(201);
  const document = {
    paciente_id: patient.json().id as string,
    template_version_id: published.json().versao_atual_id as string,
    titulo: "TCLE - Procedimento longo",
    procedimento: "Preenchimento facial",
    medico_responsavel_id: clinic.profileId,
    permitir_pendencias: true,
  };
  return { clinic, document };
}

/**
 * Watches the event loop while `work` runs: the longest gap between ticks of a 10 ms timer (how
 * long the loop was held) and /api/health asked every 25 ms, each answer timed from when it was
 * due (a held loop delays the asking too).
 */
async function watchWhile<T>(app: FastifyInstance, work: () => Promise<T>) {
  let lastTick = performance.now();
  let longestStall = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestStall = Math.max(longestStall, now - lastTick - 10);
    lastTick = now;
  }, 10);
  const health: Array<Promise<number>> = [];
  let due = performance.now() + 25;
  const asker = setInterval(() => {
    const askedFor = due;
    due = performance.now() + 25;
    health.push(
      app.inject({ method: "GET", url: "/api/health" }).then((response) => {
        expect(response.statusCode).toBe(200);
        return Math.round(performance.now() - askedFor);
      }),
    );
  }, 25);
  const started = performance.now();
  try {
    const result = await work();
    const elapsed = Math.round(performance.now() - started);
    clearInterval(asker);
    clearInterval(ticker);
    const answers = await Promise.all(health);
    return {
      result,
      elapsed,
      answers: answers.length,
      slowestHealth: Math.max(...answers),
      longestStall: Math.round(longestStall),
    };
  } finally {
    clearInterval(asker);
    clearInterval(ticker);
  }
}

/** Milliseconds one render of `input` takes on this thread (after one to warm fonts and code). */
async function oneRenderOnThisThread(input: Parameters<typeof renderDocumentPdf>[0]): Promise<number> {
  await renderDocumentPdf(input);
  const started = performance.now();
  await renderDocumentPdf(input);
  return performance.now() - started;
}

describe("large renders run off the event loop", () => {
  it("keeps /api/health answering under 200 ms (on a busy machine: one render's time) while four renders at the size limit run at once", async () => {
    const app = await appWith();
    const large = { ...sampleDocumentInput(), model: documentModelAtLimit() };
    // A running server has its threads started and warm.
    await Promise.all(Array.from({ length: app.pdfPool.threads }, () => app.pdfPool.render(large)));

    const watched = await watchWhile(app, () =>
      Promise.all(Array.from({ length: 4 }, () => app.pdfPool.render(large))),
    );
    console.info(
      `4 renders at the document limits (${app.pdfPool.threads} threads): ${JSON.stringify({ ...watched, result: undefined })}`,
    );
    for (const pdf of watched.result) expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(watched.answers).toBeGreaterThan(3);
    // 200 ms on a quiet machine. On a busy one (CI: four suites and two other processes on two
    // cores) everything slows alike, so the bound is at least what one such render takes on this
    // thread right now: four renders held on the loop would stall it about four times that.
    const budget = Math.max(200, await oneRenderOnThisThread(large));
    expect(watched.slowestHealth).toBeLessThan(budget);
    expect(watched.longestStall).toBeLessThan(budget);
    // The four renders at the limits take a few seconds on a busy 2-core box: what is measured is
    // the loop's latency meanwhile, not their speed.
  }, 120_000);

  it("four document creations at once from a template at the size limit: all saved with their PDFs, the server keeps answering", async () => {
    const app = await appWith();
    const { clinic, document } = await clinicWithLargeTemplate(app);
    const warm = await call(app, clinic, "POST", "/api/documents", document);
    expect(warm.json().pdf_gerado).toBe(true);

    const watched = await watchWhile(app, () =>
      Promise.all(Array.from({ length: 4 }, () => call(app, clinic, "POST", "/api/documents", document))),
    );
    console.info(`4 document creations at the limit: ${JSON.stringify({ ...watched, result: undefined })}`);
    for (const response of watched.result) {
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().pdf_gerado).toBe(true);
    }
    // The renders no longer hold the loop (1.4 s for these four before the pool; 7.5 s for the
    // issue's 950 kB template, now refused). On a busy machine everything slows alike, so the bound
    // grows with what one render on this thread costs right now: four renders held on the loop
    // would stall it at least twice that.
    const budget = Math.max(
      1000,
      2 * (await oneRenderOnThisThread({ ...sampleDocumentInput(), model: documentModelAtLimit() })),
    );
    expect(watched.longestStall).toBeLessThan(budget);
    // /api/health reads the database. On PostgreSQL it gets its own connection; embedded PGlite has
    // one session, so there health also waits behind the creations' queries (in PGlite's thread,
    // not on the loop): up to one more budget.
    expect(watched.slowestHealth).toBeLessThan(process.env.TEST_DB === "postgres" ? budget : 2 * budget);
  }, 120_000);
});

describe("a full queue", () => {
  it("answers 503 with Retry-After and the Portuguese message; the document is kept and its PDF made later", async () => {
    const app = await appWith({ threads: 1, maxQueue: 1 });
    const { clinic, document } = await clinicWithLargeTemplate(app);
    const large = { ...sampleDocumentInput(), model: documentModelAtLimit() };
    // One render running, one waiting: the pool is full.
    const holding = [app.pdfPool.render(large), app.pdfPool.render(large)];
    expect(app.pdfPool.stats()).toMatchObject({ threads: 1, maxQueue: 1, inFlight: 2 });

    // Creating still works: the document is saved, its PDF left for later.
    const created = await call(app, clinic, "POST", "/api/documents", document);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ pdf_gerado: false, pdf_nome: null });
    const id = created.json().id as string;

    for (const [method, url] of [
      ["GET", `/api/documents/${id}/pdf`],
      ["POST", `/api/documents/${id}/pdf`],
    ] as const) {
      const busy = await call(app, clinic, method, url);
      expect(busy.statusCode).toBe(503);
      expect(Number(busy.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect(busy.json()).toMatchObject({
        code: "SERVER_BUSY",
        message: "O servidor está ocupado gerando outros documentos. Tente novamente em alguns segundos.",
      });
    }
    expect(app.pdfPool.stats().inFlight).toBe(2); // still full while those were refused

    await Promise.all(holding);
    const detail = await call(app, clinic, "GET", `/api/documents/${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().has_pdf).toBe(false);
    const pdf = await call(app, clinic, "GET", `/api/documents/${id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(ERRORS.SERVER_BUSY.status).toBe(503);
  }, 120_000);

  it("background work (the final sealed PDF) waits for room, leaving the last places to requests", async () => {
    const pool = createPdfPool({ threads: 1, maxQueue: 2, taskTimeoutMs: TASK_TIMEOUT_MS });
    try {
      const large = { ...sampleDocumentInput(), model: documentModelAtLimit() };
      const holding = [pool.render(large), pool.render(large)];
      const seal = generateSealCertificate();
      let sealedAt = 0;
      const sealed = pool.renderAndSeal(sampleDocumentInput(), seal.material, {}, { background: true }).then((pdf) => {
        sealedAt = performance.now();
        return pdf;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Half the queue is taken: the background task waits outside it, and a request still gets in.
      expect(pool.stats().inFlight).toBe(2);
      let requestDoneAt = 0;
      const request = pool.render(sampleDocumentInput()).then(() => (requestDoneAt = performance.now()));
      expect(pool.stats().inFlight).toBe(3);
      await expect(pool.render(sampleDocumentInput())).rejects.toMatchObject({ code: "SERVER_BUSY" });
      await Promise.all([...holding, request]);
      expect(verifyPdfSignature(await sealed).valid).toBe(true);
      expect(sealedAt).toBeGreaterThan(requestDoneAt);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it("a job that finds the pool busy goes back to the queue without spending an attempt", async () => {
    const dedupeKey = `pool-busy-${Date.now()}`;
    await enqueueJob(database.db, {
      kind: "documents.expire",
      payload: {},
      dedupeKey,
      runAt: new Date("2000-01-01T00:00:00Z"),
    });
    const busy = new AppError("SERVER_BUSY");
    busy.retryAfterSeconds = 7;
    const ctx: JobContext = {
      db: database.db,
      storage: apps[0]!.services.storage,
      secretBox: apps[0]!.services.secretBox,
      env: testEnv(),
      origin: "http://localhost",
      log: { info() {}, warn() {}, error() {} },
    };
    const before = Date.now();
    expect(
      await runDueJobs({ ctx, handlers: { "documents.expire": async () => Promise.reject(busy) }, limit: 1 }),
    ).toBe(1);
    const [job] = await database.db.select().from(jobs).where(eq(jobs.dedupe_key, dedupeKey));
    expect(job).toMatchObject({ status: "pending", attempts: 0, last_error: null });
    expect(job!.run_at.getTime()).toBeGreaterThanOrEqual(before + 7000);
    await database.db.update(jobs).set({ status: "done" }).where(eq(jobs.dedupe_key, dedupeKey));
  });
});
