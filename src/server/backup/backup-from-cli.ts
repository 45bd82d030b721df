import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { type Database, openDatabase } from "../../db/client.js";
import { type Env, resolveDataDir } from "../env.js";
import { createSecretBox } from "../lib/secret-box.js";
import { createLocalFileStorage } from "../storage/file-storage.js";
import { noMigrationsFolder } from "./apply-migrations.js";
import { BackupError } from "./backup-error.js";
import { backupRootKey, instanceKeyId, readInstanceKey } from "./backup-keys.js";
import { createBackup } from "./create-backup.js";
import { requestSnapshot, SNAPSHOT_SOCKET_PURPOSE } from "./snapshot-socket.js";
import type { WrittenBackup } from "./write-backup-file.js";

export interface CliBackup extends WrittenBackup {
  /** How the snapshot was read: PostgreSQL, the PGlite folder itself, or the running app's copy. */
  via: "postgres" | "pglite" | "running-app";
}

/**
 * `npm run backup -- DIR`: PostgreSQL (DATABASE_URL) is read in a REPEATABLE READ snapshot beside
 * the running app; embedded PGlite through the running app's socket when it is up (its dump of the
 * data dir), else straight from DATA_DIR/pglite. Never migrates the database it reads.
 */
export async function backupFromCli(env: Env, dir: string, progress?: (message: string) => void): Promise<CliBackup> {
  const dataDir = resolveDataDir(env);
  const instanceKey = readInstanceKey(env);
  const root = backupRootKey(env, instanceKey);
  const storage = createLocalFileStorage(path.join(dataDir, "files"));
  const options = { dir: path.resolve(dir), root, instanceKeyId: instanceKey ? instanceKeyId(instanceKey) : null, storage, progress };
  const none = noMigrationsFolder();
  let database: Database | undefined;
  try {
    if (env.DATABASE_URL) {
      database = await openDatabase({ kind: "postgres", url: env.DATABASE_URL, poolSize: 2, migrationsFolder: none });
      return { ...(await createBackup(database, options)), via: "postgres" };
    }
    const snapshot = instanceKey ? await requestSnapshot(dataDir, createSecretBox(instanceKey).deriveKey(SNAPSHOT_SOCKET_PURPOSE)) : null;
    if (snapshot) {
      progress?.("app em execução: cópia do banco recebida pelo socket de backup");
      database = await openDatabase({ kind: "pglite-memory", snapshot, migrationsFolder: none });
      const written = await createBackup(database, options);
      return { ...written, via: "running-app" };
    }
    const pgliteDir = path.join(dataDir, "pglite");
    if (!existsSync(path.join(pgliteDir, "PG_VERSION"))) throw new BackupError(`Nenhum banco em ${pgliteDir} (confira DATA_DIR ou DATABASE_URL).`);
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
  }
}
