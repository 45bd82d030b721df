import { sql } from "drizzle-orm";
import type { Db, Tx } from "./client.js";

/**
 * Runs `work` in a transaction where PostgreSQL itself only lets it see and write rows of
 * `tenantId` (row-level security, migration 0001). Queries still filter by tenant in their
 * WHERE clauses: this is the second wall, not the first.
 */
export function withTenant<T>(db: Db, tenantId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    // One round trip: set_config('role', …, true) is SET LOCAL ROLE (the same check and effect,
    // undone at the end of the transaction), evaluated after the tenant is set.
    await tx.execute(
      sql`select set_config('app.tenant_id', ${tenantId}, true), set_config('role', 'consentir_app', true)`,
    );
    return work(tx);
  });
}
