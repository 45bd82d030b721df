import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { tenants } from "../../../db/schema.js";
import { AppError } from "../../errors.js";
import { can, type Actor } from "../../policies/roles.js";

/**
 * Only the owner manages users (spec part 2 §6: others get 'Acesso negado'), and only in an
 * establishment: an independent professional's account has one user (decision 017).
 */
export async function assertUsersManager(tx: DbOrTx, actor: Actor): Promise<void> {
  if (!can(actor, "users.manage")) throw new AppError("USERS_OWNER_ONLY");
  const [tenant] = await tx
    .select({ tipo: tenants.tipo_perfil })
    .from(tenants)
    .where(eq(tenants.id, actor.tenantId))
    .limit(1);
  if (tenant?.tipo !== "estabelecimento") throw new AppError("USERS_ESTABLISHMENT_ONLY");
}
