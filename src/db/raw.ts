import type { SQL } from "drizzle-orm";
import type { DbOrTx } from "./client.js";

/** Runs raw SQL and returns its rows (the two drivers both answer `{ rows }`). */
export async function rawRows<T = Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
