import { sql } from "drizzle-orm";
import { type Database, openDatabase, type Tx } from "../../db/client.js";
import type { FileStorage } from "../storage/file-storage.js";
import type { BackupDestination } from "./backup-destination.js";
import type { BackupRootKey } from "./backup-keys.js";
import { exportSnapshot } from "./export-snapshot.js";
import { writeBackupFile, type WrittenBackup } from "./write-backup-file.js";

export interface CreateBackupOptions {
  /** A folder, or another destination (the S3 bucket, decision 030). */
  dir: string | BackupDestination;
  root: BackupRootKey;
  instanceKeyId: string | null;
  storage: FileStorage;
  /**
   * PGlite runs one query at a time: a long read transaction would hold the whole app. With
   * `copyPglite`, the export reads a copy made by PGlite's own dump of the data dir instead, and the
   * app waits only for the dump (the worker's daily backup). The CLI's own database needs no copy.
   */
  copyPglite?: boolean;
  progress?: (message: string) => void;
  now?: Date;
}

/** PGlite's own consistent dump of its data dir, after a checkpoint (a tarball in memory). */
export async function dumpPgliteDataDir(database: Database): Promise<Blob> {
  if (!database.snapshot) throw new Error("only PGlite can dump its data dir");
  await database.db.execute(sql`checkpoint`);
  return database.snapshot();
}

/**
 * Runs `read` inside one consistent snapshot: a REPEATABLE READ, READ ONLY transaction — on a
 * PGlite copy when asked (see CreateBackupOptions.copyPglite).
 */
export async function withConsistentSnapshot<T>(
  database: Database,
  copyPglite: boolean,
  read: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (database.kind === "pglite" && copyPglite) {
    const copy = await openDatabase({ kind: "pglite-memory", snapshot: await dumpPgliteDataDir(database) });
    try {
      return await withConsistentSnapshot(copy, false, read);
    } finally {
      await copy.close();
    }
  }
  return database.db.transaction(read, { isolationLevel: "repeatable read", accessMode: "read only" });
}

/** One backup file of `database` and its stored files into `options.dir` (a folder or the bucket). */
export async function createBackup(database: Database, options: CreateBackupOptions): Promise<WrittenBackup> {
  return writeBackupFile(
    options.dir,
    options.root,
    (sink) =>
      withConsistentSnapshot(database, options.copyPglite ?? false, (tx) =>
        exportSnapshot(tx, options.storage, sink, {
          source: database.kind,
          instanceKeyId: options.instanceKeyId,
          progress: options.progress,
        }),
      ),
    options.now,
  );
}
