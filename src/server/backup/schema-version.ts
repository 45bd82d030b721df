import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { migrationsFolder } from "../../db/paths.js";
import { rawRows } from "../../db/raw.js";
import { BACKUP_MESSAGES, BackupError } from "./backup-error.js";

/** Where a database stands: how many committed migrations it ran, and the last one's tag and stamp. */
export interface SchemaVersion {
  migrations: number;
  last_tag: string | null;
  last_when: number;
}

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

export function localJournal(folder = migrationsFolder): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}

/** The migrations drizzle recorded in this database (drizzle.__drizzle_migrations). */
export async function readSchemaVersion(db: DbOrTx): Promise<SchemaVersion> {
  const [row] = await rawRows<{ n: number | string; last: string | null }>(
    db,
    sql`select count(*) as n, max(created_at)::text as last from drizzle.__drizzle_migrations`,
  );
  const last = Number(row?.last ?? 0);
  const entry = localJournal().find((e) => e.when === last);
  return { migrations: Number(row?.n ?? 0), last_tag: entry?.tag ?? null, last_when: last };
}

/**
 * How many of this code's migrations a backup's database had run; refuses a backup from a newer
 * version (or from migrations this code does not know).
 */
export function migrationsToRestore(version: SchemaVersion): number {
  const entries = localJournal();
  const index = entries.findIndex((e) => e.when === version.last_when);
  if (index === -1 || index + 1 !== version.migrations) {
    const newest = Math.max(0, ...entries.map((e) => e.when));
    if (version.last_when > newest || version.migrations > entries.length) {
      throw new BackupError(BACKUP_MESSAGES.newerSchema(version.last_tag ?? `nº ${version.migrations}`));
    }
    throw new BackupError(BACKUP_MESSAGES.unknownSchema);
  }
  return version.migrations;
}

/** A copy of the migrations folder that stops after the first `count` migrations (removed by the caller). */
export function migrationsFolderUpTo(count: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "consentir-migrations-"));
  mkdirSync(path.join(dir, "meta"));
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  const entries = journal.entries.slice(0, count);
  for (const entry of entries)
    copyFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  writeFileSync(path.join(dir, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  return dir;
}
