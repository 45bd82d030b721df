import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { rawRows } from "../../db/raw.js";

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** How often a process deletes counters whose window ended (at most). */
const PRUNE_EVERY_MS = 60_000;

/**
 * A @fastify/rate-limit store in PostgreSQL (issue 16): one row per route + client key with its
 * hits and the end of its window, incremented in one upsert, so every web process counts the same
 * requests (the default store is each process's memory, where N processes allow N times the
 * limit). Fixed windows, like the default store; the key is hashed (a session cookie never
 * lands in a table). Routes are told apart by a namespace taken from their method and URL.
 */
export function postgresRateLimitStore(db: Db) {
  let lastPrune = 0;
  const prune = () => {
    const now = Date.now();
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    db.execute(sql`delete from rate_limit_counters where window_ends_at < now() - interval '1 minute'`).catch(() => {
      // A failed prune is retried a minute later; counters past their window are reset anyway.
    });
  };

  class PostgresRateLimitStore {
    private readonly namespace: string;

    /** The plugin constructs the root store with its options; routes get children with a namespace. */
    constructor(_options?: unknown, namespace = "") {
      this.namespace = namespace;
    }

    private hash(key: string): string {
      return createHash("sha256").update(`${this.namespace}\u0000${key}`).digest("hex");
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      prune();
      rawRows<{ hits: number; ttl: number }>(
        db,
        sql`insert into rate_limit_counters as c (key, hits, window_ends_at)
            values (${this.hash(key)}, 1, clock_timestamp() + ${timeWindow} * interval '1 millisecond')
            on conflict (key) do update set
              hits = case when c.window_ends_at <= clock_timestamp() then 1 else c.hits + 1 end,
              window_ends_at = case when c.window_ends_at <= clock_timestamp() then excluded.window_ends_at else c.window_ends_at end
            returning hits, greatest(0, ceil(extract(epoch from (window_ends_at - clock_timestamp())) * 1000))::int as ttl`,
      ).then(
        ([row]) => callback(null, { current: row?.hits ?? 1, ttl: row?.ttl ?? timeWindow }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    read(key: string, callback: Callback): void {
      rawRows<{ hits: number; ttl: number }>(
        db,
        sql`select hits, greatest(0, ceil(extract(epoch from (window_ends_at - clock_timestamp())) * 1000))::int as ttl
              from rate_limit_counters where key = ${this.hash(key)} and window_ends_at > clock_timestamp()`,
      ).then(
        ([row]) => callback(null, row ? { current: row.hits, ttl: row.ttl } : { current: 0, ttl: 0 }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /**
     * At run time the plugin passes the route's merged limit options, the route under `routeInfo`.
     * The limit itself is part of the namespace: a route whose limit changes starts counting anew
     * (and two apps with different limits on one database, as tests build, do not share counts).
     */
    child(routeOptions: object): PostgresRateLimitStore {
      const options = routeOptions as { routeInfo?: { method?: string | string[]; url?: string }; max?: unknown; timeWindow?: unknown };
      const method = [options.routeInfo?.method ?? ""].flat().join(",");
      const limit = `${typeof options.max === "number" ? options.max : "f"}/${typeof options.timeWindow === "number" ? options.timeWindow : "f"}`;
      return new PostgresRateLimitStore(undefined, `${method} ${options.routeInfo?.url ?? ""} ${limit}`);
    }
  }
  return PostgresRateLimitStore;
}
