import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { FeegowFeatureFlags, FeegowSettings } from "../../../shared/schemas/feegow.js";
import type { Actor } from "../../policies/roles.js";
import { featureFlags, loadFeegowRow, presentFeegowSettings } from "./feegow-store.js";

/** The /integration screen's state (owner/admin). */
export function getFeegowSettings(db: Db, actor: Actor): Promise<FeegowSettings> {
  return withTenant(db, actor.tenantId, async (tx) => presentFeegowSettings(await loadFeegowRow(tx, actor.tenantId)));
}

/** What the staff may use now: a switch that is on, with a token saved. */
export function getFeegowFeatures(db: Db, actor: Actor): Promise<FeegowFeatureFlags> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const row = await loadFeegowRow(tx, actor.tenantId);
    const flags = featureFlags(row);
    if (!row?.token_encrypted) for (const key of Object.keys(flags) as (keyof FeegowFeatureFlags)[]) flags[key] = false;
    return flags;
  });
}
