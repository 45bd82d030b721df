import { asDestination, type BackupDestination } from "./backup-destination.js";
import { backupTimeOf } from "./backup-file-name.js";
import { backupsToRemove, DEFAULT_RETENTION, type RetentionPolicy } from "./retention.js";

const STALE_PARTIAL_MS = 24 * 60 * 60 * 1000;

/**
 * Applies the retention rule to the backups in a folder (`target` a path) or the bucket — only
 * files named like ours — and removes what killed backups left more than a day ago. Returns how
 * many backups it removed.
 */
export async function pruneBackups(
  target: string | BackupDestination,
  now: Date = new Date(),
  policy: RetentionPolicy = DEFAULT_RETENTION,
): Promise<number> {
  const destination = asDestination(target);
  const backups = (await destination.list()).flatMap((name) => {
    const time = backupTimeOf(name);
    return time ? [{ name, time }] : [];
  });
  const removals = backupsToRemove(backups, policy);
  for (const name of removals) await destination.remove(name);
  await destination.removeStale(now, STALE_PARTIAL_MS);
  return removals.length;
}
