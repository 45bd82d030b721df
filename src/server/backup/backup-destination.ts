import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Env } from "../env.js";
import { isPartialFile, partialFileName } from "./backup-file-name.js";

/** A backup being written: bytes in order, then either commit (it appears under its name) or abort. */
export interface BackupSink {
  write(data: Buffer): Promise<void>;
  /** Makes the backup visible under its final name; returns where it is (a path or s3://bucket/key). */
  commit(): Promise<string>;
  /** Drops what was written; nothing named as a complete backup is left. */
  abort(): Promise<void>;
}

/**
 * Where backup files go (decisions 027 and 030): a folder, or the S3 bucket under backups/. Either
 * way a backup is visible under its final name only once complete.
 */
export interface BackupDestination {
  /** For messages: the folder, or s3://bucket/prefix. */
  readonly location: string;
  begin(name: string): Promise<BackupSink>;
  exists(name: string): Promise<boolean>;
  /** The names present (backups and anything else; the caller picks ours by name). */
  list(): Promise<string[]>;
  remove(name: string): Promise<void>;
  /** Leftovers of killed backups older than `maxAgeMs`: removed where the destination can see them. */
  removeStale(now: Date, maxAgeMs: number): Promise<void>;
  /** Releases connections (S3). */
  close(): void;
}

/**
 * A folder: written to a hidden `.partial` name first (0600), fsync, renamed to its final name and
 * the folder fsynced — a process killed half-way leaves at most the `.partial`.
 */
export function localBackupDestination(dir: string): BackupDestination {
  return {
    location: dir,
    async begin(name) {
      await mkdir(dir, { recursive: true });
      const finalPath = path.join(dir, name);
      const temporary = path.join(dir, partialFileName(name, process.pid, randomBytes(4).toString("hex")));
      const handle = await open(temporary, "wx", 0o600);
      let closed = false;
      return {
        async write(data) {
          await handle.write(data);
        },
        async commit() {
          await handle.sync();
          await handle.close();
          closed = true;
          await rename(temporary, finalPath);
          await syncFolder(dir);
          return finalPath;
        },
        async abort() {
          if (!closed) await handle.close().catch(() => undefined);
          closed = true;
          await rm(temporary, { force: true });
        },
      };
    },
    async exists(name) {
      return existsSync(path.join(dir, name));
    },
    async list() {
      return readdir(dir);
    },
    async remove(name) {
      await rm(path.join(dir, name), { force: true });
    },
    async removeStale(now, maxAgeMs) {
      for (const name of (await readdir(dir)).filter(isPartialFile)) {
        const info = await stat(path.join(dir, name)).catch(() => null);
        if (info && now.getTime() - info.mtimeMs > maxAgeMs) await rm(path.join(dir, name), { force: true });
      }
    },
    close() {},
  };
}

/** fsync of the folder, so the rename itself survives a power cut (ignored where unsupported). */
async function syncFolder(dir: string): Promise<void> {
  try {
    const folder = await open(dir, "r");
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  } catch {
    // Some filesystems refuse fsync on a directory; the file itself is already synced.
  }
}

export const asDestination = (target: string | BackupDestination): BackupDestination =>
  typeof target === "string" ? localBackupDestination(target) : target;

type DestinationEnv = Pick<
  Env,
  | "BACKUP_DIR"
  | "BACKUP_S3"
  | "S3_BUCKET"
  | "S3_ENDPOINT"
  | "S3_REGION"
  | "S3_ACCESS_KEY_ID"
  | "S3_SECRET_ACCESS_KEY"
  | "S3_FORCE_PATH_STYLE"
  | "S3_SERVER_SIDE_ENCRYPTION"
>;

/** Whether the daily backup has somewhere to go: BACKUP_S3 (the bucket) or BACKUP_DIR. */
export const dailyBackupConfigured = (env: Pick<Env, "BACKUP_DIR" | "BACKUP_S3" | "S3_BUCKET">): boolean =>
  Boolean((env.BACKUP_S3 && env.S3_BUCKET) || env.BACKUP_DIR);

/**
 * The daily backup's destination: the bucket's backups/ with BACKUP_S3=true (the AWS SDK is loaded
 * only then), else BACKUP_DIR, else null.
 */
export async function dailyBackupDestination(env: DestinationEnv): Promise<BackupDestination | null> {
  if (env.BACKUP_S3) {
    const { s3SettingsFromEnv, BACKUP_S3_PREFIX } = await import("../storage/s3-settings.js");
    const settings = s3SettingsFromEnv(env);
    if (!settings) return null;
    const { s3BackupDestination } = await import("./s3-backup-destination.js");
    return s3BackupDestination(settings, BACKUP_S3_PREFIX);
  }
  return env.BACKUP_DIR ? localBackupDestination(path.resolve(env.BACKUP_DIR)) : null;
}
