import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { auditEvents } from "../../db/schema.js";
import { rawRows } from "../../db/raw.js";

const BATCH = 500;

/**
 * The expiry sweep (DESIGN §2): sent or viewed documents past expiracao_at become expired, each
 * with its audit event, in one transaction per batch. Readers already treat them as expired.
 */
export async function expireDocuments(db: Db, now: Date = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await db.transaction(async (tx) => {
      const rows = await rawRows<{ id: string; tenant_id: string }>(
        tx,
        sql`update contratos c set status = 'expired', updated_at = ${now}
            from (select id from contratos where status in ('sent', 'viewed') and expiracao_at <= ${now}
                  order by expiracao_at limit ${BATCH} for update skip locked) due
            where c.id = due.id
            returning c.id, c.tenant_id`,
      );
      for (const row of rows) {
        await tx.insert(auditEvents).values({
          tenant_id: row.tenant_id,
          actor_profile_id: null,
          action: "document.expired",
          entity_type: "contrato",
          entity_id: row.id,
          data: { expirado_em: now.toISOString() },
        });
      }
      return rows.length;
    });
    total += expired;
    if (expired < BATCH) return total;
  }
}
