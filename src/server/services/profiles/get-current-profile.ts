import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles, tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";

export async function getCurrentProfile(db: Db, actor: Pick<Actor, "profileId" | "tenantId">) {
  return withTenant(db, actor.tenantId, async (tx) => {
    const [row] = await tx
      .select({ profile: profiles, tenant: tenants })
      .from(profiles)
      .innerJoin(tenants, eq(tenants.id, profiles.tenant_id))
      .where(and(eq(profiles.id, actor.profileId), eq(profiles.tenant_id, actor.tenantId)))
      .limit(1);
    if (!row) throw new AppError("UNAUTHENTICATED");
    return row;
  });
}
