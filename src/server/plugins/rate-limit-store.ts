import { createHash } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { rawRows } from "../../db/raw.js";

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** How often a process deletes counters whose window ended (at most). */
const PRUNE_EVERY_MS = 60_000;

/** One limit a request counts against: its namespace (route and limit), client key, limit and window. */
export interface RateLimitRule {
  namespace: string;
  key: string;
  max: number;
  /** Milliseconds. */
  timeWindow: number;
}

/** A rule's count after this request, or null when an earlier rule was already exceeded (not counted). */
export type RateLimitCount = { current: number; ttl: number } | null;

/**
 * The namespace of a limiter: its method and URL (empty for limiters made with createRateLimit)
 * and the limit itself, so a route whose limit changes starts counting anew (and two apps with
 * different limits on one database, as tests build, do not share counts).
 */
export function rateLimitNamespace(method: string, url: string, max: unknown, timeWindow: unknown): string {
  return `${method} ${url} ${typeof max === "number" ? max : "f"}/${typeof timeWindow === "number" ? timeWindow : "f"}`;
}

/** The stored key: hashed (a session cookie or an address never lands in a table as such). */
const hashKey = (namespace: string, key: string) =>
  createHash("sha256").update(`${namespace}\u0000${key}`).digest("hex");

const ttlOf = sql`greatest(0, ceil(extract(epoch from (window_ends_at - clock_timestamp())) * 1000))::int`;

const lastPrune = new WeakMap<Db, number>();
/** Deletes counters whose window ended, at most once a minute per process and database. */
function pruneNow(db: Db): void {
  const now = Date.now();
  if (now - (lastPrune.get(db) ?? 0) < PRUNE_EVERY_MS) return;
  lastPrune.set(db, now);
  db.execute(sql`delete from rate_limit_counters where window_ends_at < now() - interval '1 minute'`).catch(() => {
    // A failed prune is retried a minute later; counters past their window are reset anyway.
  });
}

/**
 * Counts one request against `rules` in ONE statement (one round trip, one commit), in order, as
 * checking them one after another would: a rule is counted only while every rule before it is
 * within its limit — the first exceeded one answers, the later ones are not touched. Each rule
 * is an upsert of its row (fixed window: a window that ended starts again at 1), chained by
 * data-modifying CTEs; rows are locked in the rules' order, which every caller keeps the same
 * (per address, then per link, then per purpose), so two requests never wait on each other in
 * opposite orders.
 */
export async function countRequest(db: Db, rules: readonly RateLimitRule[]): Promise<RateLimitCount[]> {
  if (rules.length === 0) return [];
  pruneNow(db);
  const steps = rules.map((rule, i) => {
    const previous = rules[i - 1];
    const guard = previous ? sql` where (select hits from ${sql.raw(`r${i - 1}`)}) <= ${previous.max}::int` : sql``;
    return sql`${sql.raw(`r${i}`)} as (
      insert into rate_limit_counters as c (key, hits, window_ends_at)
      select ${hashKey(rule.namespace, rule.key)}::text, 1, clock_timestamp() + ${rule.timeWindow}::int * interval '1 millisecond'${guard}
      on conflict (key) do update set
        hits = case when c.window_ends_at <= clock_timestamp() then 1 else c.hits + 1 end,
        window_ends_at = case when c.window_ends_at <= clock_timestamp() then excluded.window_ends_at else c.window_ends_at end
      returning hits, ${ttlOf} as ttl)`;
  });
  const answers: SQL[] = rules.map((_, i) => sql`select ${i}::int as n, hits, ttl from ${sql.raw(`r${i}`)}`);
  const rows = await rawRows<{ n: number; hits: number; ttl: number }>(
    db,
    sql`with ${sql.join(steps, sql`, `)} ${sql.join(answers, sql` union all `)}`,
  );
  const counts: RateLimitCount[] = rules.map(() => null);
  for (const row of rows) counts[row.n] = { current: row.hits, ttl: row.ttl };
  return counts;
}

/**
 * A @fastify/rate-limit store in PostgreSQL: one row per route + client key with its
 * hits and the end of its window, incremented in one upsert, so every web process counts the same
 * requests (the default store is each process's memory, where N processes allow N times the
 * limit). Fixed windows, like the default store; the key is hashed. Routes are told apart by a
 * namespace taken from their method and URL (rateLimitNamespace). Routes that count several
 * limits at once use countRequest directly (one statement for all of them).
 */
export function postgresRateLimitStore(db: Db) {
  class PostgresRateLimitStore {
    private readonly namespace: string;

    /** The plugin constructs the root store with its options; routes get children with a namespace. */
    constructor(_options?: unknown, namespace = "") {
      this.namespace = namespace;
    }

    incr(key: string, callback: Callback, timeWindow: number, max?: number): void {
      countRequest(db, [{ namespace: this.namespace, key, max: max ?? Number.MAX_SAFE_INTEGER, timeWindow }]).then(
        ([count]) => callback(null, count ?? { current: 1, ttl: timeWindow }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    read(key: string, callback: Callback): void {
      rawRows<{ hits: number; ttl: number }>(
        db,
        sql`select hits, ${ttlOf} as ttl
              from rate_limit_counters where key = ${hashKey(this.namespace, key)} and window_ends_at > clock_timestamp()`,
      ).then(
        ([row]) => callback(null, row ? { current: row.hits, ttl: row.ttl } : { current: 0, ttl: 0 }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /** At run time the plugin passes the route's merged limit options, the route under `routeInfo`. */
    child(routeOptions: object): PostgresRateLimitStore {
      const options = routeOptions as {
        routeInfo?: { method?: string | string[]; url?: string };
        max?: unknown;
        timeWindow?: unknown;
      };
      const method = [options.routeInfo?.method ?? ""].flat().join(",");
      return new PostgresRateLimitStore(
        undefined,
        rateLimitNamespace(method, options.routeInfo?.url ?? "", options.max, options.timeWindow),
      );
    }
  }
  return PostgresRateLimitStore;
}
