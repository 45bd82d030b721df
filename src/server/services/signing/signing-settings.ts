import { eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { tenants } from "../../../db/schema.js";

/** Does the clinic ask for the e-mail one-time code before signing? (tenants.settings.assinatura) */
export async function requiresEmailCode(tx: Tx, tenantId: string): Promise<boolean> {
  const [row] = await tx.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return row?.settings.assinatura?.codigo_email === true;
}
