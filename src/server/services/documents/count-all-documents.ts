import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { tenantCounters } from "../../../db/schema.js";

/** The clinic's number of documents, kept by triggers (migration 0013): no counting per request. */
export async function countAllDocuments(tx: DbOrTx, tenantId: string): Promise<number> {
  const [row] = await tx
    .select({ contratos: tenantCounters.contratos })
    .from(tenantCounters)
    .where(eq(tenantCounters.tenant_id, tenantId))
    .limit(1);
  return row?.contratos ?? 0;
}
