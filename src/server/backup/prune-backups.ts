import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { backupTimeOf, isPartialFile } from "./backup-file-name.js";
import { backupsToRemove, DEFAULT_RETENTION, type RetentionPolicy } from "./retention.js";

const STALE_PARTIAL_MS = 24 * 60 * 60 * 1000;

/**
 * Applies the retention rule to the backup files in `dir` (only files named like ours) and removes
 * `.partial` files a killed backup left more than a day ago. Returns how many backups it removed.
 */
export async function pruneBackups(dir: string, now: Date = new Date(), policy: RetentionPolicy = DEFAULT_RETENTION): Promise<number> {
  const names = await readdir(dir);
  const backups = names.flatMap((name) => {
    const time = backupTimeOf(name);
    return time ? [{ name, time }] : [];
  });
  const removals = backupsToRemove(backups, policy);
  for (const name of removals) await rm(path.join(dir, name), { force: true });
  for (const name of names.filter(isPartialFile)) {
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (info && now.getTime() - info.mtimeMs > STALE_PARTIAL_MS) await rm(path.join(dir, name), { force: true });
  }
  return removals.length;
}
