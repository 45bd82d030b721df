import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { type Database, openDatabase, type Tx } from "../../db/client.js";
import { acquireDataDirLock } from "../../db/data-dir-lock.js";
import { rawRows } from "../../db/raw.js";
import type { Env } from "../env.js";
import { createSecretBox } from "../lib/secret-box.js";
import { AUDIT_ANCHOR_KEY_PURPOSE } from "../services/audit/audit-anchors.js";
import { createLocalFileStorage, type FileStorage } from "../storage/file-storage.js";
import type { S3Settings } from "../storage/s3-settings.js";
import { applyMigrationsInTransaction, migrateToLatest, noMigrationsFolder } from "./apply-migrations.js";
import { BACKUP_MESSAGES, BackupError } from "./backup-error.js";
import { instanceKeyId, readInstanceKey } from "./backup-keys.js";
import type { BackupManifest, BackupPreamble } from "./backup-manifest.js";
import { type LoadedCounts, loadRecords } from "./load-tables.js";
import { backupRecords, unlockBackup, verifyBackup } from "./read-backup-file.js";
import { checkRestored, type RestoredChecks } from "./restored-checks.js";
import { localJournal, migrationsToRestore } from "./schema-version.js";

export type RestoreTarget = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string; dataDir: string };

export interface RestoreOptions {
  /** A backup file's path, or s3://bucket/key in the configured bucket (decision 030). */
  file: string;
  env: Pick<Env, "APP_SECRET" | "DATA_DIR" | "BACKUP_KEY">;
  target: RestoreTarget;
  /** Replace a target that is not empty (PGlite: the old folder is moved aside; PostgreSQL: dropped in the same transaction). */
  force?: boolean;
  progress?: (message: string) => void;
  /** Where the stored files go (default DATA_DIR/files; the bucket when S3_BUCKET is set). */
  storage?: FileStorage;
  /** The configured bucket, to read an s3:// backup from. */
  s3?: S3Settings | null;
}

export interface RestoreReport {
  preamble: BackupPreamble;
  manifest: BackupManifest;
  loaded: LoadedCounts;
  /** Where the replaced PGlite folder went (--force). */
  movedAside: string | null;
  /** Set when this installation's instance key is not the one the backup came from. */
  keyWarning: string | null;
  checks: RestoredChecks;
  /** The audit trail and every sealed PDF check out. */
  ok: boolean;
}

export const KEY_WARNING =
  "A chave desta instalação (APP_SECRET ou DATA_DIR/secret.key) não é a da instalação de origem: certificados, tokens do Feegow " +
  "e cópias de links guardados não abrirão, e as âncoras da trilha de auditoria não conferem. Use a mesma chave da origem.";
export const NO_INSTANCE_KEY =
  "Sem a chave da instalação de origem (APP_SECRET ou secret.key) aqui, as âncoras assinadas da trilha não podem ser conferidas, " +
  "nem os segredos guardados abertos: defina a mesma APP_SECRET ou copie o secret.key da origem para DATA_DIR.";

/**
 * `npm run restore`: the whole file is read and checked first (key, every chunk, the manifest, the
 * schema version) — a bad file is refused before the target is touched. Then, in ONE transaction on
 * the target: the migrations the backup's database had, every table's rows as they were (triggers
 * off, audit chain byte for byte), sequences; stored files go into DATA_DIR/files (or the bucket). Then the newer
 * migrations of this code, and the checks `audit:verify` makes plus each sealed PDF's SHA-256.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreReport> {
  if (!options.file.startsWith("s3://")) return restoreBackupFile(options);
  // From the bucket: a local copy first (the file is read twice: checked whole, then loaded).
  const { downloadS3Backup } = await import("./s3-backup-destination.js");
  options.progress?.(`baixando ${options.file}`);
  const copy = await downloadS3Backup(options.file, options.s3 ?? null, options.target.dataDir);
  try {
    return await restoreBackupFile({ ...options, file: copy.file });
  } finally {
    await copy.remove();
  }
}

async function restoreBackupFile(options: RestoreOptions): Promise<RestoreReport> {
  const progress = options.progress ?? (() => undefined);
  const instanceKey = readInstanceKey(options.env);
  const backup = await unlockBackup(options.file, options.env, instanceKey);
  let migrations = 0;
  const { preamble, manifest } = await verifyBackup(backup, (p) => {
    migrations = migrationsToRestore(p.schema);
  });
  progress(
    `backup verificado: ${manifest.tables.reduce((n, t) => n + t.rows, 0)} linhas, ${manifest.files.count} arquivos`,
  );
  const storage = options.storage ?? createLocalFileStorage(path.join(options.target.dataDir, "files"));
  const anchorKey = instanceKey ? createSecretBox(instanceKey).deriveKey(AUDIT_ANCHOR_KEY_PURPOSE) : null;
  const keyWarning = !instanceKey
    ? NO_INSTANCE_KEY
    : preamble.instance_key_id && preamble.instance_key_id !== instanceKeyId(instanceKey)
      ? KEY_WARNING
      : null;

  const restore = async (database: Database, clear: boolean) => {
    let loaded: LoadedCounts = { rows: 0, files: 0 };
    await database.db.transaction(async (tx) => {
      if (clear) await clearPostgresSchema(tx);
      await applyMigrationsInTransaction(tx, migrations);
      loaded = await loadRecords(tx, backupRecords(backup), storage);
    });
    progress(`dados carregados: ${loaded.rows} linhas, ${loaded.files} arquivos`);
    if (migrations < localJournal().length) {
      await migrateToLatest(database);
      progress("migrações mais novas aplicadas");
    }
    // Fresh statistics for the planner (PGlite has no autovacuum to make them).
    await database.db.execute(sql`analyze`);
    const checks = await checkRestored(database.db, storage, anchorKey);
    return { loaded, checks };
  };

  let movedAside: string | null = null;
  let result: { loaded: LoadedCounts; checks: RestoredChecks };
  if (options.target.kind === "pglite") {
    const pgliteDir = path.join(options.target.dataDir, "pglite");
    movedAside = prepareEmptyPgliteDir(pgliteDir, options.force ?? false);
    const none = noMigrationsFolder();
    let database: Database | undefined;
    try {
      database = await openDatabase({ kind: "pglite", dataDir: pgliteDir, migrationsFolder: none });
      result = await restore(database, false);
    } catch (error) {
      await database?.close().catch(() => undefined);
      database = undefined;
      rmSync(pgliteDir, { recursive: true, force: true });
      if (movedAside) renameSync(movedAside, pgliteDir);
      throw error;
    } finally {
      rmSync(none, { recursive: true, force: true });
      await database?.close();
    }
  } else {
    const none = noMigrationsFolder();
    const database = await openDatabase({
      kind: "postgres",
      url: options.target.url,
      poolSize: 2,
      migrationsFolder: none,
    });
    try {
      const what = await postgresContents(database);
      if (what && !options.force) throw new BackupError(BACKUP_MESSAGES.targetNotEmpty(what));
      result = await restore(database, what !== null);
    } finally {
      rmSync(none, { recursive: true, force: true });
      await database.close();
    }
  }
  const { loaded, checks } = result;
  const ok = checks.audit !== null && checks.audit.every((r) => r.intact) && checks.pdfs.failed.length === 0;
  return { preamble, manifest, loaded, movedAside, keyWarning, checks, ok };
}

/**
 * The PGlite folder must be absent or empty; with --force a non-empty one is moved aside (after
 * making sure no app holds it), and moved back if the restore fails.
 */
function prepareEmptyPgliteDir(pgliteDir: string, force: boolean): string | null {
  if (!existsSync(pgliteDir) || readdirSync(pgliteDir).length === 0) return null;
  let release: () => void;
  try {
    release = acquireDataDirLock(pgliteDir);
  } catch {
    throw new BackupError(BACKUP_MESSAGES.appRunning(path.dirname(pgliteDir)));
  }
  release();
  if (!force) throw new BackupError(BACKUP_MESSAGES.targetNotEmpty(`${pgliteDir} já tem um banco`));
  const aside = `${pgliteDir}.antes-da-restauracao-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  renameSync(pgliteDir, aside);
  return aside;
}

/** What a PostgreSQL target already holds (null when empty: no table, no migration recorded). */
async function postgresContents(database: Database): Promise<string | null> {
  const [row] = await rawRows<{ tables: number | string; migrations: number | string }>(
    database.db,
    sql`select (select count(*) from pg_tables where schemaname = 'public') as tables,
               (select count(*) from drizzle.__drizzle_migrations) as migrations`,
  );
  const tables = Number(row?.tables ?? 0);
  const migrations = Number(row?.migrations ?? 0);
  if (tables === 0 && migrations === 0) return null;
  return `o banco tem ${tables} tabelas e ${migrations} migrações aplicadas`;
}

/** --force on PostgreSQL: our schemas go, in the restore's own transaction (a failure keeps them). */
async function clearPostgresSchema(tx: Tx): Promise<void> {
  await tx.execute(sql`drop schema if exists drizzle cascade`);
  await tx.execute(sql`drop schema if exists public cascade`);
  await tx.execute(sql`create schema public`);
}
