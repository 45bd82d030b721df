import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { type Database, openDatabase } from "../../db/client.js";
import { type Env, resolveDataDir } from "../env.js";
import { createSecretBox } from "../lib/secret-box.js";
import { BACKUP_S3_PREFIX, s3SettingsFromEnv } from "../storage/s3-settings.js";
import { createFileStorage } from "../storage/storage-from-env.js";
import { noMigrationsFolder } from "./apply-migrations.js";
import { BackupError } from "./backup-error.js";
import { type BackupDestination, dailyBackupDestination, localBackupDestination } from "./backup-destination.js";
import { backupRootKey, instanceKeyId, readInstanceKey } from "./backup-keys.js";
import { createBackup } from "./create-backup.js";
import { requestSnapshot, SNAPSHOT_SOCKET_PURPOSE } from "./snapshot-socket.js";
import type { WrittenBackup } from "./write-backup-file.js";

export interface CliBackup extends WrittenBackup {
  /** How the snapshot was read: PostgreSQL, the PGlite folder itself, or the running app's copy. */
  via: "postgres" | "pglite" | "running-app";
}

/**
 * Where `npm run backup` writes: a folder, `s3://BUCKET[/PREFIX/]` (the configured bucket, prefix
 * default backups/), or — with no argument — the daily backup's destination (BACKUP_S3 or BACKUP_DIR).
 */
export async function backupTarget(env: Env, target: string | undefined): Promise<BackupDestination> {
  if (target === undefined) {
    const configured = await dailyBackupDestination(env);
    if (!configured)
      throw new BackupError(
        "Diga onde gravar: npm run backup -- PASTA (ou s3://BUCKET), ou defina BACKUP_DIR ou BACKUP_S3=true.",
      );
    return configured;
  }
  if (target.startsWith("s3://")) {
    const { s3DestinationFromUri } = await import("./s3-backup-destination.js");
    return s3DestinationFromUri(target, s3SettingsFromEnv(env), BACKUP_S3_PREFIX);
  }
  return localBackupDestination(path.resolve(target));
}

/**
 * `npm run backup -- DIR`: PostgreSQL (DATABASE_URL) is read in a REPEATABLE READ snapshot beside
 * the running app; embedded PGlite through the running app's socket when it is up (its dump of the
 * data dir), else straight from DATA_DIR/pglite. Never migrates the database it reads. Stored files
 * are read from the configured storage (DATA_DIR/files or the bucket).
 */
export async function backupFromCli(
  env: Env,
  target: string | undefined,
  progress?: (message: string) => void,
): Promise<CliBackup> {
  const dataDir = resolveDataDir(env);
  const instanceKey = readInstanceKey(env);
  const root = backupRootKey(env, instanceKey);
  const destination = await backupTarget(env, target);
  const storage = await createFileStorage(env);
  const options = {
    dir: destination,
    root,
    instanceKeyId: instanceKey ? instanceKeyId(instanceKey) : null,
    storage,
    progress,
  };
  const none = noMigrationsFolder();
  let database: Database | undefined;
  try {
    if (env.DATABASE_URL) {
      database = await openDatabase({ kind: "postgres", url: env.DATABASE_URL, poolSize: 2, migrationsFolder: none });
      return { ...(await createBackup(database, options)), via: "postgres" };
    }
    const snapshot = instanceKey
      ? await requestSnapshot(dataDir, createSecretBox(instanceKey).deriveKey(SNAPSHOT_SOCKET_PURPOSE))
      : null;
    if (snapshot) {
      progress?.("app em execução: cópia do banco recebida pelo socket de backup");
      database = await openDatabase({ kind: "pglite-memory", snapshot, migrationsFolder: none });
      const written = await createBackup(database, options);
      return { ...written, via: "running-app" };
    }
    const pgliteDir = path.join(dataDir, "pglite");
    if (!existsSync(path.join(pgliteDir, "PG_VERSION")))
      throw new BackupError(`Nenhum banco em ${pgliteDir} (confira DATA_DIR ou DATABASE_URL).`);
    try {
      database = await openDatabase({ kind: "pglite", dataDir: pgliteDir, migrationsFolder: none });
    } catch (error) {
      throw new BackupError(
        `${(error as Error).message} O app em execução não respondeu pelo socket de backup (${path.join(dataDir, "backup.sock")}): ` +
          "confira se é esta versão do Consentir e a mesma APP_SECRET/secret.key.",
      );
    }
    return { ...(await createBackup(database, options)), via: "pglite" };
  } finally {
    rmSync(none, { recursive: true, force: true });
    await database?.close();
    destination.close();
    storage.close?.();
  }
}
