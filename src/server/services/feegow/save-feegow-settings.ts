import type { Db } from "../../../db/client.js";
import { integracoesFeegow } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import {
  FEEGOW_FEATURES,
  type FeegowSettings,
  type feegowSettingsInputSchema,
} from "../../../shared/schemas/feegow.js";
import type { z } from "zod";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { featureFlags, loadFeegowRow, presentFeegowSettings, tokenFinal } from "./feegow-store.js";

type Input = z.output<typeof feegowSettingsInputSchema>;

export interface SaveFeegowSettingsOptions {
  db: Db;
  secretBox: SecretBox;
  actor: Actor;
  input: Input;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * Owner/admin: saves a new token (sealed; the connection goes back to disconnected until tested)
 * and/or turns switches on or off. A switch turns on only with a token saved and a connection
 * tested successfully (spec part 2 §2); off is always allowed. Audited without the token.
 */
export async function saveFeegowSettings({
  db,
  secretBox,
  actor,
  input,
  audit,
  now = new Date(),
}: SaveFeegowSettingsOptions): Promise<FeegowSettings> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const before = await loadFeegowRow(tx, actor.tenantId, true);
    let tokenEncrypted = before?.token_encrypted ?? null;
    let final = before?.token_final ?? null;
    let status = before?.status ?? "disconnected";
    let lastError = before?.last_error ?? null;
    if (input.token !== undefined) {
      tokenEncrypted = secretBox.seal(input.token);
      final = tokenFinal(input.token);
      status = "disconnected";
      lastError = null;
    }
    const was = featureFlags(before);
    const next = { ...was };
    for (const feature of FEEGOW_FEATURES) {
      const wanted = input.integrations?.[feature];
      if (wanted === undefined || wanted === was[feature]) continue;
      if (wanted && (!tokenEncrypted || status !== "connected")) throw new AppError("FEEGOW_NOT_CONNECTED");
      next[feature] = wanted;
    }

    const values = {
      token_encrypted: tokenEncrypted,
      token_final: final,
      status,
      last_error: lastError,
      integrations: next,
      updated_by: actor.profileId,
      updated_at: now,
    };
    const [row] = await tx
      .insert(integracoesFeegow)
      .values({ tenant_id: actor.tenantId, ...values })
      .onConflictDoUpdate({ target: integracoesFeegow.tenant_id, set: values })
      .returning();

    const switched = Object.fromEntries(
      FEEGOW_FEATURES.filter((feature) => was[feature] !== next[feature]).map((feature) => [
        feature,
        { antes: was[feature], depois: next[feature] },
      ]),
    );
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "integration.feegow_updated",
        entityType: "tenant",
        entityId: actor.tenantId,
        data: { token_alterado: input.token !== undefined, integracoes: switched },
      },
    );
    return presentFeegowSettings(row);
  });
}
