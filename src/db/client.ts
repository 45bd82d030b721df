import { existsSync, mkdirSync } from "node:fs";
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
  /**
   * Calls `observer` with the text of every statement this database runs from now on (BEGIN,
   * COMMIT and ROLLBACK included, on both drivers) until the returned function is called: how the
   * statement budget of a signature is measured (decision 073). One empty-set check per statement
   * when nobody observes.
   */
  observeStatements(observer: StatementObserver): () => void;
}

export type StatementObserver = (statement: string) => void;

/** The observers of one database, fed by drizzle's logger hook (and PGlite's transactions). */
class StatementObservers {
  private readonly observers = new Set<StatementObserver>();
  readonly logger = { logQuery: (query: string): void => this.emit(query) };

  emit(statement: string): void {
    if (this.observers.size === 0) return;
    for (const observer of this.observers) observer(statement);
  }

  add(observer: StatementObserver): () => void {
    // A wrapper per subscription: the same function observed twice is two subscriptions.
    const entry: StatementObserver = (statement) => observer(statement);
    this.observers.add(entry);
    return () => {
      this.observers.delete(entry);
    };
  }
}

export type DatabaseOptions = (
  | { kind: "postgres"; url: string; poolSize?: number }
  | {
      kind: "pglite";
      dataDir: string;
      thread?: boolean;
      /** A tarball (dumpDataDir) a new, empty data directory starts from instead of initdb. */
      initial?: Blob;
    }
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
  const statements = new StatementObservers();
  // drizzle runs BEGIN/COMMIT of node-postgres transactions as statements: its logger sees them.
  const db = drizzlePg(pool, { schema, logger: statements.logger }) as unknown as Db;
  return {
    kind: "postgres",
    db,
    migrate: (folder) => migratePg(drizzlePg(pool), { migrationsFolder: folder ?? migrationsFolder }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: (channel, handlers) => listenPostgres(url, channel, handlers),
    observeStatements: (observer) => statements.add(observer),
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
    | { kind: "pglite"; dataDir: string; thread?: boolean; initial?: Blob }
    | { kind: "pglite-memory"; snapshot?: Blob; thread?: boolean },
): Promise<Database & { migrate(folder?: string): Promise<void> }> {
  let releaseLock: (() => void) | undefined;
  let dataDir: string | undefined;
  let initial: Blob | undefined;
  if (options.kind === "pglite") {
    dataDir = path.resolve(options.dataDir);
    mkdirSync(dataDir, { recursive: true });
    releaseLock = acquireDataDirLock(dataDir);
    // Only a directory PostgreSQL never initialised takes the tarball; an existing one is opened as it is.
    if (options.initial && !existsSync(path.join(dataDir, "PG_VERSION"))) initial = options.initial;
  }
  let client: PgliteClient;
  try {
    client = await startPglite(
      dataDir,
      options.kind === "pglite-memory" ? options.snapshot : initial,
      options.thread ?? true,
    );
  } catch (error) {
    releaseLock?.();
    throw error;
  }
  // drizzle's PGlite driver calls only query() and transaction(), which RemotePglite answers as PGlite does.
  const asPglite = client as unknown as PGlite;
  const statements = new StatementObservers();
  // PGlite opens and closes its transactions itself, out of drizzle's logger: they are told here.
  const observed = {
    query: asPglite.query.bind(asPglite),
    transaction: async <T>(run: Parameters<PGlite["transaction"]>[0]): Promise<T> => {
      statements.emit("begin");
      try {
        const result = (await asPglite.transaction(run)) as T;
        statements.emit("commit");
        return result;
      } catch (error) {
        statements.emit("rollback");
        throw error;
      }
    },
  } as unknown as PGlite;
  const db = drizzlePglite({ client: observed, schema, logger: statements.logger }) as unknown as Db;
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
    observeStatements: (observer) => statements.add(observer),
    close: async () => {
      try {
        await client.close();
      } finally {
        releaseLock?.();
      }
    },
  };
}
