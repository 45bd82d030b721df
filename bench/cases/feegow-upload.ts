/**
 * `feegow-upload`: 1,000 PDFs queued for the clinic system drain through 'feegow.upload' jobs
 * against the local fake Feegow answering every call in 200 ms (decision 016, second step).
 *
 * The queue is worked as the worker process works it: runDueJobs rounds with JOB_CONCURRENCY
 * lanes (the worker's default, 4; BENCH_FEEGOW_WORKERS to try others). Each lane takes its own
 * job with FOR UPDATE SKIP LOCKED, so lanes never share one.
 * Reported per database: uploads_per_s over the whole drain, median_ms / p95_ms of one upload job
 * (claim, 'enviando', the 200 ms call, 'enviado' and its audit event), and the check that none was
 * lost (every upload 'enviado', every job done) or duplicated (the fake accepted each
 * patient + file key exactly once).
 */
import { sql } from "drizzle-orm";
import { rawRows } from "../../src/db/raw.js";
import { files, integracoesFeegow, pacientes } from "../../src/db/schema.js";
import { withTenant } from "../../src/db/tenant-scope.js";
import { loadEnv } from "../../src/server/env.js";
import { jobHandlers } from "../../src/server/jobs/handlers.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { countOpenJobs, type JobHandlers, runDueJobs } from "../../src/server/jobs/run-due-jobs.js";
import { queueFeegowUpload } from "../../src/server/services/feegow/feegow-uploads-store.js";
import { FAKE_FEEGOW_TOKEN, startFakeFeegowServer } from "../../tests/fakes/feegow-server.js";
import type { BenchCase, BenchResult } from "../run.js";
import { round, summarize } from "../stats.js";
import { benchClinic, benchDatabases, startBenchTarget } from "../support/bench-app.js";

const UPLOADS = 1_000;
const FEEGOW_LATENCY_MS = 200;
const WORKERS = Number(process.env.BENCH_FEEGOW_WORKERS ?? loadEnv({ NODE_ENV: "test" }).JOB_CONCURRENCY);
const log = (message: string) => process.stderr.write(`  [feegow-upload] ${message}\n`);

async function runOn(label: "pglite" | "postgres"): Promise<Record<string, number | string>> {
  const fake = await startFakeFeegowServer();
  const target = await startBenchTarget(label);
  try {
    // Only this case's lanes work the queue (the bench app's own worker would call the real Feegow URL).
    await target.app.worker.stop();
    const { tenantId } = await benchClinic(target, 7);
    const db = target.database.db;
    const { storage, secretBox } = target.app.services;

    // The clinic's integration as "Testar conexão" leaves it, with the upload switch on.
    await db.insert(integracoesFeegow).values({
      tenant_id: tenantId,
      token_encrypted: secretBox.seal(FAKE_FEEGOW_TOKEN),
      token_final: FAKE_FEEGOW_TOKEN.slice(-4),
      status: "connected",
      integrations: { file_upload: true },
      last_sync: new Date(),
    });
    const [patient] = await db
      .insert(pacientes)
      .values({ tenant_id: tenantId, nome: "Helena Duarte Vasconcelos", cpf: "52998224725", feegow_patient_id: 4817 })
      .returning({ id: pacientes.id });
    const [version] = await rawRows<{ id: string }>(
      db,
      sql`with t as (
            insert into templates (tenant_id, titulo, especialidade, categoria, status)
            values (${tenantId}::uuid, 'TCLE Feegow', 'Dermatologia', 'Consentimento', 'published') returning id)
          insert into template_versions (tenant_id, template_id, version_number, conteudo_html, variaveis_json, changelog, hash_modelo, published_at)
          select ${tenantId}::uuid, t.id, 1, '{}', '{"title":"TCLE","introduction":"","sections":[]}'::jsonb, 'Versão inicial', repeat('0', 64), now() from t
          returning id`,
    );
    const documents = await rawRows<{ id: string }>(
      db,
      sql`insert into contratos (tenant_id, paciente_id, template_version_id, titulo, status, documento, conteudo_sha256, expiracao_at)
          select ${tenantId}::uuid, ${patient!.id}::uuid, ${version!.id}::uuid, 'Termo de Consentimento ' || i, 'signed', '{}'::jsonb, repeat('0', 64), now() + interval '7 days'
          from generate_series(1, ${UPLOADS}) i
          returning id`,
    );

    // One distinct PDF per document (stored by SHA-256), and its upload queued as the sealing transaction does.
    const run = Date.now().toString(36);
    for (let start = 0; start < documents.length; start += 100) {
      const batch = documents.slice(start, start + 100);
      const stored = await Promise.all(
        batch.map((_, i) =>
          storage.put(Buffer.from(`%PDF-1.7\n% bench ${run} ${start + i}\n${"x".repeat(40_000)}\n%%EOF\n`)),
        ),
      );
      await withTenant(db, tenantId, async (tx) => {
        for (const [i, document] of batch.entries()) {
          const file = stored[i]!;
          const [row] = await tx
            .insert(files)
            .values({
              tenant_id: tenantId,
              sha256: file.sha256,
              size: file.size,
              content_type: "application/pdf",
              nome: `termo-${start + i}.pdf`,
            })
            .returning({ id: files.id });
          await queueFeegowUpload(tx, {
            tenantId,
            contratoId: document.id,
            fileId: row!.id,
            sha256: file.sha256,
            origem: "assinado",
            requestedBy: null,
            requeueFailed: false,
          });
        }
      });
    }
    log(`${label}: ${UPLOADS} envios na fila; ${WORKERS} pistas, Feegow respondendo em ${FEEGOW_LATENCY_MS} ms`);

    fake.latencyMs = FEEGOW_LATENCY_MS;
    const durations: number[] = [];
    const upload = jobHandlers["feegow.upload"]!;
    const handlers: JobHandlers = {
      "feegow.upload": async (ctx, payload, tenant, now) => {
        const started = performance.now();
        await upload(ctx, payload, tenant, now);
        durations.push(performance.now() - started);
      },
    };
    const env = loadEnv({
      NODE_ENV: "test",
      FEEGOW_URL: fake.url,
      FEEGOW_TIMEOUT_MS: "10000",
      DATA_DIR: "/tmp/consentir-bench-data",
      WORKER: "false",
    });
    const ctx: JobContext = {
      db,
      storage,
      secretBox,
      env,
      origin: "http://127.0.0.1",
      log: {
        info() {},
        warn() {},
        error: (obj: unknown, msg?: string) =>
          log(`erro: ${msg ?? ""} ${String((obj as { err?: Error }).err?.message ?? "")}`),
      },
    };

    const started = performance.now();
    // The worker's tick: rounds of up to 20 jobs over its lanes, until the queue is empty.
    while ((await runDueJobs({ ctx, handlers, limit: 20, lease: { concurrency: WORKERS } })) > 0);
    const seconds = (performance.now() - started) / 1000;

    const [states] = await rawRows<{ enviado: number; outros: number; abertos: number }>(
      db,
      sql`select count(*) filter (where status = 'enviado')::int as enviado, count(*) filter (where status <> 'enviado')::int as outros,
                 (select count(*)::int from jobs where kind = 'feegow.upload' and status <> 'done') as abertos
          from feegow_uploads where tenant_id = ${tenantId}`,
    );
    const accepted = fake.acceptedByKey();
    const duplicated = [...accepted.values()].filter((n) => n > 1).length;
    const lost = UPLOADS - (states?.enviado ?? 0);
    if (
      lost !== 0 ||
      duplicated !== 0 ||
      accepted.size !== UPLOADS ||
      (states?.abertos ?? 1) !== 0 ||
      (await countOpenJobs(db)) !== 0
    ) {
      throw new Error(
        `perdidos ${lost}, duplicados ${duplicated}, aceitos ${accepted.size}, jobs abertos ${states?.abertos}`,
      );
    }
    const stats = summarize(durations);
    log(
      `${label}: ${UPLOADS} enviados em ${round(seconds, 1)} s (${round(UPLOADS / seconds, 1)}/s); job mediana ${round(stats.median)} ms, p95 ${round(stats.p95)} ms`,
    );
    return {
      database: label,
      seconds: round(seconds, 2),
      uploads_per_s: round(UPLOADS / seconds, 1),
      median_ms: round(stats.median),
      p95_ms: round(stats.p95),
      sent: states?.enviado ?? 0,
      lost,
      duplicated,
      feegow_calls: fake.uploadArrivals,
    };
  } finally {
    await target.close();
    await fake.close();
  }
}

async function run(): Promise<BenchResult> {
  const results: Record<string, Record<string, number | string>> = {};
  for (const label of benchDatabases()) results[label] = await runOn(label);
  const first = results.pglite!;
  return {
    median_ms: first.median_ms as number,
    p95_ms: first.p95_ms as number,
    uploads: UPLOADS,
    workers: WORKERS,
    feegow_latency_ms: FEEGOW_LATENCY_MS,
    uploads_per_s: first.uploads_per_s,
    lost: first.lost,
    duplicated: first.duplicated,
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
  name: "feegow-upload",
  description: `${UPLOADS} envios ao Feegow (fake a ${FEEGOW_LATENCY_MS} ms) drenados por um worker com ${WORKERS} pistas (JOB_CONCURRENCY): envios/s, nenhum perdido ou duplicado`,
  run,
} satisfies BenchCase;
