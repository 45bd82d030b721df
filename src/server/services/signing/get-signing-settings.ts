import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { Actor } from "../../policies/roles.js";
import { requiresEmailCode } from "./signing-settings.js";

export interface SigningSettings {
  codigo_email: boolean;
}

export async function getSigningSettings(db: Db, actor: Actor): Promise<SigningSettings> {
  return withTenant(db, actor.tenantId, async (tx) => ({ codigo_email: await requiresEmailCode(tx, actor.tenantId) }));
}
