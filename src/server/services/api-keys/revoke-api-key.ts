import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { apiKeys } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { ApiKeyView } from "../../../shared/schemas/api-keys.js";
import { AppError } from "../../errors.js";
import { type Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { presentApiKey, selectApiKeys } from "./present-api-key.js";

export interface RevokeApiKeyOptions {
  db: Db;
  actor: Actor;
  id: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * Revokes a key of the clinic: its next request answers 401. Revoking a revoked key changes
 * nothing and answers it as it is; another clinic's key is not found (404).
 */
export async function revokeApiKey({
  db,
  actor,
  id,
  audit,
  now = new Date(),
}: RevokeApiKeyOptions): Promise<ApiKeyView> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revoked_at: now, revoked_by: actor.profileId })
      .where(and(eq(apiKeys.tenant_id, actor.tenantId), eq(apiKeys.id, id), isNull(apiKeys.revoked_at)))
      .returning({ nome: apiKeys.nome, prefixo: apiKeys.prefixo });
    if (revoked) {
      await recordAuditEvent(
        tx,
        { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
        { action: "api_key.revoked", entityType: "chave_api", entityId: id, data: revoked },
      );
    }
    const [row] = await selectApiKeys(tx, actor.tenantId, id);
    if (!row) throw new AppError("API_KEY_NOT_FOUND");
    return presentApiKey(row, now);
  });
}
