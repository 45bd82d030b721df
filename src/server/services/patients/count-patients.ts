import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { tenantCounters } from "../../../db/schema.js";

/** The clinic's number of patients, kept by triggers (migration 0006): no counting per request. */
export async function countAllPatients(tx: DbOrTx, tenantId: string): Promise<number> {
  const [row] = await tx
    .select({ pacientes: tenantCounters.pacientes })
    .from(tenantCounters)
    .where(eq(tenantCounters.tenant_id, tenantId))
    .limit(1);
  return row?.pacientes ?? 0;
}
