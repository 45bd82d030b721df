/**
 * `npm run bench -- backup`: backup and restore time for a large clinic (decision 027).
 * Not part of CI. The data set's size is a parameter (generating 100.000 documents takes a while
 * on a busy machine):
 *   BENCH_BACKUP_DOCUMENTS (default 100000)  documents, each with an audit event and a frozen model
 *   BENCH_BACKUP_MODEL_BYTES (default 4000)  size of each document's frozen model (jsonb)
 *   BENCH_BACKUP_FILES (default 500) × BENCH_BACKUP_FILE_BYTES (default 200000)  stored PDFs
 * PGlite always (backup as the worker takes it: from a copy of the data dir; restore into an empty
 * DATA_DIR as `npm run restore` does); PostgreSQL too when DATABASE_URL is set (a throwaway database).
 * median_ms and p95_ms are the backup time of the first database (one run each).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import type { Db } from "../../src/db/client.js";
import { createBackup } from "../../src/server/backup/create-backup.js";
import { restoreBackup } from "../../src/server/backup/restore-backup.js";
import { createLocalFileStorage, type FileStorage } from "../../src/server/storage/file-storage.js";
import { backupRootKey, readInstanceKey } from "../../src/server/backup/backup-keys.js";
import type { BenchCase } from "../run.js";
import { round } from "../stats.js";
import { benchClinic, benchDatabases, startBenchTarget } from "../support/bench-app.js";
import { fillPatients } from "./patients-list.js";

const count = (name: string, fallback: number) => {
  const value = Number.parseInt(process.env[name] ?? "", 10);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
};
const DOCUMENTS = count("BENCH_BACKUP_DOCUMENTS", 100_000);
const MODEL_BYTES = count("BENCH_BACKUP_MODEL_BYTES", 4000);
const FILES = count("BENCH_BACKUP_FILES", 500);
const FILE_BYTES = count("BENCH_BACKUP_FILE_BYTES", 200_000);
const PATIENTS = 5_000;
/** The bench app's DATA_DIR (bench-app.ts): its secret.key signs the audit anchors the restore checks. */
const KEY_ENV = { DATA_DIR: path.join(os.tmpdir(), "consentir-bench-data") };

/** Documents (with a frozen model of about MODEL_BYTES) and one audit event each, in batches. */
async function fillDocuments(db: Db, tenantId: string, n: number): Promise<void> {
  const [version] = (
    (await db.execute(sql`
      with t as (
        insert into templates (tenant_id, titulo, especialidade, categoria, status)
        values (${tenantId}::uuid, 'TCLE Geral', 'Cirurgia Plástica', 'Consentimento', 'published') returning id
      )
      insert into template_versions (tenant_id, template_id, version_number, conteudo_html, variaveis_json, changelog, hash_modelo, published_at)
      select ${tenantId}::uuid, t.id, 1, '{}', '{"title":"TCLE","introduction":"","sections":[]}'::jsonb, 'Versão inicial', repeat('0', 64), now() from t
      returning id
    `)) as unknown as { rows: { id: string }[] }
  ).rows;
  const paragraph = "Declaro que fui informado(a) dos riscos, benefícios e cuidados do procedimento. ".repeat(
    Math.max(1, Math.ceil(MODEL_BYTES / 90)),
  );
  for (let from = 1; from <= n; from += 20_000) {
    const to = Math.min(n, from + 19_999);
    await db.execute(sql`
      with inserted as (
        insert into contratos (tenant_id, paciente_id, template_version_id, titulo, procedimento, status, variaveis_preenchidas, documento, conteudo_sha256, expiracao_at, created_at, updated_at)
        select ${tenantId}::uuid, p.id, ${version?.id}::uuid, 'Termo de Consentimento ' || i,
          (array['Blefaroplastia superior','Toxina botulínica','Implante dentário','Rinoplastia'])[1 + i % 4],
          (array['draft','sent','viewed','signed','cancelled'])[1 + i % 5],
          jsonb_build_object('paciente_nome', p.nome),
          jsonb_build_object('title', 'Termo ' || i, 'sections', jsonb_build_array(jsonb_build_object('content', ${paragraph}::text || i))),
          encode(sha256(i::text::bytea), 'hex'),
          now() + interval '7 days', now() - (i || ' minutes')::interval, now() - (i || ' minutes')::interval
        from generate_series(${from}::int, ${to}::int) as i
        join (select id, nome, row_number() over (order by id) as rn from pacientes where tenant_id = ${tenantId}::uuid) p on p.rn = 1 + i % ${PATIENTS}
        returning id
      )
      insert into audit_events (tenant_id, action, entity_type, entity_id, data)
      select ${tenantId}::uuid, 'document.created', 'contrato', id, '{}'::jsonb from inserted
    `);
  }
}

/** FILES stored files of FILE_BYTES (random: they do not compress), each with its files row. */
async function fillFiles(db: Db, storage: FileStorage, tenantId: string): Promise<void> {
  for (let i = 0; i < FILES; i++) {
    const stored = await storage.put(randomBytes(FILE_BYTES));
    await db.execute(
      sql`insert into files (tenant_id, sha256, size, content_type, nome) values (${tenantId}::uuid, ${stored.sha256}, ${stored.size}, 'application/pdf', ${`termo-${i}.pdf`})`,
    );
  }
}

async function freshPostgres(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `consentir_bench_restore_${Date.now()}_${process.pid}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists "${name}" with (force)`) };
}

export default {
  name: "backup",
  description: `Backup e restauração de ${DOCUMENTS} documentos e ${FILES} arquivos (tempo de cada um; tamanho via BENCH_BACKUP_*)`,
  async run() {
    const results: Record<string, unknown> = {
      documents: DOCUMENTS,
      model_bytes: MODEL_BYTES,
      files: FILES,
      file_bytes: FILE_BYTES,
    };
    let headline: number | undefined;
    for (const label of benchDatabases()) {
      const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-bench-backup-"));
      const target = await startBenchTarget(label);
      let dropRestored: (() => Promise<void>) | undefined;
      try {
        const storage = createLocalFileStorage(path.join(scratch, "source", "files"));
        const clinic = await benchClinic(target, 1);
        const filled = performance.now();
        await fillPatients(target.database.db, clinic.tenantId, PATIENTS, 1);
        await fillDocuments(target.database.db, clinic.tenantId, DOCUMENTS);
        await fillFiles(target.database.db, storage, clinic.tenantId);
        console.error(`[${label}] dados gerados em ${Math.round(performance.now() - filled)} ms`);

        const backupStarted = performance.now();
        const written = await createBackup(target.database, {
          dir: path.join(scratch, "backups"),
          root: backupRootKey(KEY_ENV, readInstanceKey(KEY_ENV)),
          instanceKeyId: null,
          storage,
          copyPglite: true,
        });
        const backupMs = performance.now() - backupStarted;
        console.error(`[${label}] backup: ${Math.round(backupMs)} ms, ${(written.bytes / 1024 / 1024).toFixed(1)} MB`);
        await target.close();

        const restoredDir = path.join(scratch, "restored");
        let restoreTarget: Parameters<typeof restoreBackup>[0]["target"] = { kind: "pglite", dataDir: restoredDir };
        if (label === "postgres") {
          const fresh = await freshPostgres(process.env.DATABASE_URL ?? "");
          dropRestored = fresh.drop;
          restoreTarget = { kind: "postgres", url: fresh.url, dataDir: restoredDir };
        }
        const restoreStarted = performance.now();
        const report = await restoreBackup({ file: written.path, env: KEY_ENV, target: restoreTarget });
        const restoreMs = performance.now() - restoreStarted;
        const broken = [
          ...(report.checks.audit ?? []).filter((r) => !r.intact).map((r) => r.problems.join(" ")),
          ...report.checks.pdfs.failed.map((f) => f.problem),
        ];
        if (broken.length > 0) throw new Error(`a restauração não conferiu: ${broken.slice(0, 3).join("; ")}`);
        console.error(`[${label}] restauração: ${Math.round(restoreMs)} ms`);
        const prefix = label === "pglite" ? "" : "postgres_";
        results[`${prefix}backup_ms`] = round(backupMs);
        results[`${prefix}restore_ms`] = round(restoreMs);
        results[`${prefix}backup_mb`] = round(written.bytes / 1024 / 1024);
        results[`${prefix}rows`] = written.manifest.tables.reduce((n, t) => n + t.rows, 0);
        headline ??= backupMs;
      } finally {
        await target.close().catch(() => undefined);
        await dropRestored?.();
        rmSync(scratch, { recursive: true, force: true });
      }
    }
    return { median_ms: round(headline ?? 0), p95_ms: round(headline ?? 0), ...results };
  },
} satisfies BenchCase;
