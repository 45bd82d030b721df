import type { Db } from "../../../db/client.js";
import { integracoesFeegow } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { FEEGOW_FEATURES, type FeegowSettings } from "../../../shared/schemas/feegow.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { featureFlags, loadFeegowRow, presentFeegowSettings } from "./feegow-store.js";

/**
 * "Remover token" (owner/admin): forgets the sealed token, sets the status to disconnected and
 * turns every switch off — uploads still queued then fail with 'Integração desabilitada' instead of
 * using a token the clinic withdrew. Audited (never the token). Rotating is saving a new one.
 */
export async function removeFeegowToken(
  db: Db,
  actor: Actor,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
  now = new Date(),
): Promise<FeegowSettings> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const before = await loadFeegowRow(tx, actor.tenantId, true);
    const off = Object.fromEntries(FEEGOW_FEATURES.map((feature) => [feature, false]));
    const values = {
      token_encrypted: null,
      token_final: null,
      status: "disconnected" as const,
      last_error: null,
      integrations: off,
      updated_by: actor.profileId,
      updated_at: now,
    };
    const [row] = await tx
      .insert(integracoesFeegow)
      .values({ tenant_id: actor.tenantId, ...values })
      .onConflictDoUpdate({ target: integracoesFeegow.tenant_id, set: values })
      .returning();
    const was = featureFlags(before);
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "integration.feegow_token_removed",
        entityType: "tenant",
        entityId: actor.tenantId,
        data: {
          tinha_token: Boolean(before?.token_encrypted),
          integracoes_desligadas: FEEGOW_FEATURES.filter((feature) => was[feature]),
        },
      },
    );
    return presentFeegowSettings(row);
  });
}
