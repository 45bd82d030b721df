import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { acquireDataDirLock } from "./data-dir-lock.js";
import { RemotePglite } from "./pglite-thread/remote-pglite.js";
import { listenPglite, listenPostgres, type NotificationHandlers, type NotificationSubscription } from "./listen.js";
import { migrationsFolder } from "./paths.js";
import * as schema from "./schema.js";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle has the same query API as the database. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  readonly kind: "pglite" | "postgres";
  readonly db: Db;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * LISTEN on `channel` (decision 022): PostgreSQL through one dedicated connection that
   * reconnects by itself, PGlite in-process. Close the subscription before the database.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<NotificationSubscription>;
  /** PGlite only: the whole data dir as a tarball (tests start new databases from it). */
  snapshot?(): Promise<Blob>;
}

export type DatabaseOptions = (
  | { kind: "postgres"; url: string; poolSize?: number }
  | { kind: "pglite"; dataDir: string }
  | { kind: "pglite-memory"; snapshot?: Blob }
) & {
  /** Migrate with this folder instead of src/db/migrations (a restore stops at a backup's version). */
  migrationsFolder?: string;
};

/** Opens the database and applies the committed migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.kind === "postgres" ? openPostgres(options.url, options.poolSize) : await openPglite(options);
  try {
    await database.migrate(options.migrationsFolder);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

function openPostgres(url: string, poolSize = 10): Database & { migrate(folder?: string): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    kind: "postgres",
    db,
    migrate: (folder) => migratePg(drizzlePg(pool), { migrationsFolder: folder ?? migrationsFolder }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: (channel, handlers) => listenPostgres(url, channel, handlers),
    close: () => pool.end(),
  };
}

async function openPglite(
  options: { kind: "pglite"; dataDir: string } | { kind: "pglite-memory"; snapshot?: Blob },
): Promise<Database & { migrate(folder?: string): Promise<void> }> {
  let releaseLock: (() => void) | undefined;
  let dataDir: string | undefined;
  if (options.kind === "pglite") {
    dataDir = path.resolve(options.dataDir);
    mkdirSync(dataDir, { recursive: true });
    releaseLock = acquireDataDirLock(dataDir);
  }
  let client: RemotePglite;
  try {
    const loadDataDir = options.kind === "pglite-memory" ? await options.snapshot?.arrayBuffer() : undefined;
    // PGlite runs in its own thread (decision 038); the app's event loop only sends and receives.
    client = await RemotePglite.start({ dataDir, loadDataDir });
  } catch (error) {
    releaseLock?.();
    throw error;
  }
  // drizzle's PGlite driver calls only query() and transaction(), which RemotePglite answers alike.
  const asPglite = client as unknown as PGlite;
  const db = drizzlePglite({ client: asPglite, schema }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    migrate: (folder) => migratePglite(drizzlePglite({ client: asPglite }), { migrationsFolder: folder ?? migrationsFolder }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: (channel, handlers) => listenPglite(client, channel, handlers),
    snapshot: () => client.dumpDataDir(),
    close: async () => {
      try {
        await client.close();
      } finally {
        releaseLock?.();
      }
    },
  };
}
