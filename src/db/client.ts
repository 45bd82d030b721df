import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { acquireDataDirLock } from "./data-dir-lock.js";
import { PGLITE_SETTINGS } from "./pglite-thread/pglite-settings.js";
import { RemotePglite } from "./pglite-thread/remote-pglite.js";
import { listenPglite, listenPostgres, type NotificationHandlers, type NotificationSubscription } from "./listen.js";
import { migrationsFolder } from "./paths.js";
import * as schema from "./schema.js";

/** What the app uses of a PGlite: PGlite itself or its thread's stand-in (decision 038). */
type PgliteClient = PGlite | RemotePglite;

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
  | { kind: "pglite"; dataDir: string; thread?: boolean }
  | { kind: "pglite-memory"; snapshot?: Blob; thread?: boolean }
) & {
  /** Migrate with this folder instead of src/db/migrations (a restore stops at a backup's version). */
  migrationsFolder?: string;
};

/** Opens the database and applies the committed migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database =
    options.kind === "postgres" ? openPostgres(options.url, options.poolSize) : await openPglite(options);
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

/**
 * PGlite in its own thread (decision 038: the app, the benches, the browser tests) or, with
 * `thread: false`, on the caller's thread (the integration suite's many short-lived databases:
 * there, two threads handing every statement to each other cost the PGlite lanes ~17 % more time
 * on a busy two-core machine — 837/965 s against 691/811 s; the transport has its own tests).
 */
async function startPglite(
  dataDir: string | undefined,
  snapshot: Blob | undefined,
  thread: boolean,
): Promise<PgliteClient> {
  if (thread) return RemotePglite.start({ dataDir, loadDataDir: await snapshot?.arrayBuffer() });
  const client = await PGlite.create({ dataDir, loadDataDir: snapshot, extensions: { pg_trgm, unaccent } });
  await client.exec(PGLITE_SETTINGS);
  return client;
}

async function openPglite(
  options:
    | { kind: "pglite"; dataDir: string; thread?: boolean }
    | { kind: "pglite-memory"; snapshot?: Blob; thread?: boolean },
): Promise<Database & { migrate(folder?: string): Promise<void> }> {
  let releaseLock: (() => void) | undefined;
  let dataDir: string | undefined;
  if (options.kind === "pglite") {
    dataDir = path.resolve(options.dataDir);
    mkdirSync(dataDir, { recursive: true });
    releaseLock = acquireDataDirLock(dataDir);
  }
  let client: PgliteClient;
  try {
    client = await startPglite(
      dataDir,
      options.kind === "pglite-memory" ? options.snapshot : undefined,
      options.thread ?? true,
    );
  } catch (error) {
    releaseLock?.();
    throw error;
  }
  // drizzle's PGlite driver calls only query() and transaction(), which RemotePglite answers as PGlite does.
  const asPglite = client as unknown as PGlite;
  const db = drizzlePglite({ client: asPglite, schema }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    migrate: (folder) =>
      migratePglite(drizzlePglite({ client: asPglite }), { migrationsFolder: folder ?? migrationsFolder }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: (channel, handlers) => listenPglite(client, channel, handlers),
    snapshot: () => client.dumpDataDir("none"),
    close: async () => {
      try {
        await client.close();
      } finally {
        releaseLock?.();
      }
    },
  };
}
