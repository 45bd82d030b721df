import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { Database, Tx } from "../../db/client.js";
import { migrationsFolder } from "../../db/paths.js";
import { migrationsFolderUpTo } from "./schema-version.js";

/**
 * Runs the first `count` committed migrations inside the caller's transaction, recording them the
 * way drizzle's migrator does (drizzle.__drizzle_migrations: hash and stamp), so the later
 * `migrate` of the app goes on from there. Inside one transaction with the data load, a restore is
 * all or nothing.
 */
export async function applyMigrationsInTransaction(tx: Tx, count: number): Promise<void> {
  const folder = migrationsFolderUpTo(count);
  try {
    const migrations = readMigrationFiles({ migrationsFolder: folder });
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(
      sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`,
    );
    for (const migration of migrations) {
      for (const statement of migration.sql) await tx.execute(sql.raw(statement));
      await tx.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
      );
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The migrations newer than a restored backup (drizzle's migrator on the open database). */
export async function migrateToLatest(database: Database): Promise<void> {
  if (database.kind === "postgres") await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder });
  else await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
}

/** An empty migrations folder: opens a database without migrating it. */
export function noMigrationsFolder(): string {
  return migrationsFolderUpTo(0);
}
