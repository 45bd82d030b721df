import { dateInSaoPaulo } from "../../shared/dates/sao-paulo.js";

/** How many of the newest days, ISO weeks and months keep their newest backup. */
export interface RetentionPolicy {
  daily: number;
  weekly: number;
  monthly: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { daily: 7, weekly: 4, monthly: 12 };

export interface DatedBackup {
  name: string;
  time: Date;
}

/** ISO 8601 week (YYYY-Www) of a calendar date: weeks start on Monday; week 1 holds the year's first Thursday. */
export function isoWeek(date: string): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const d = new Date(Date.UTC(year, month - 1, day));
  const weekday = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - weekday);
  const weekYear = d.getUTCFullYear();
  const week = Math.ceil(((d.getTime() - Date.UTC(weekYear, 0, 1)) / 86_400_000 + 1) / 7);
  return `${weekYear}-W${String(week).padStart(2, "0")}`;
}

/**
 * Grandfather-father-son: the newest backup of each of the `daily` most recent days that have one,
 * of the `weekly` most recent ISO weeks and of the `monthly` most recent months (São Paulo
 * calendar) stays; every other backup is returned for removal. The newest backup always stays.
 */
export function backupsToRemove(backups: DatedBackup[], policy: RetentionPolicy = DEFAULT_RETENTION): string[] {
  const newestFirst = [...backups].sort((a, b) => b.time.getTime() - a.time.getTime());
  const keep = new Set<string>();
  const buckets: [(b: DatedBackup) => string, number][] = [
    [(b) => dateInSaoPaulo(b.time), policy.daily],
    [(b) => isoWeek(dateInSaoPaulo(b.time)), policy.weekly],
    [(b) => dateInSaoPaulo(b.time).slice(0, 7), policy.monthly],
  ];
  for (const [bucketOf, count] of buckets) {
    const seen = new Set<string>();
    for (const backup of newestFirst) {
      const bucket = bucketOf(backup);
      if (seen.has(bucket)) continue;
      if (seen.size >= count) break;
      seen.add(bucket);
      keep.add(backup.name);
    }
  }
  return newestFirst.filter((b) => !keep.has(b.name)).map((b) => b.name);
}
