import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { apiKeys, profiles } from "../../../db/schema.js";
import { roleWithinCreator } from "../../../shared/schemas/api-keys.js";
import type { ApiKeyActor } from "../../lib/request-api-key.js";
import type { Role } from "../../policies/roles.js";
import type { SessionUser } from "../auth/sessions.js";
import { apiKeyHashOf, sameHash } from "./api-key-secret.js";

/** last_used_at is written at most this often per key (decision 058), not on every request. */
export const LAST_USE_INTERVAL_MS = 60 * 1000;

export interface ResolvedApiKey {
  /** The same request context a session gives: tenant, role, the creator as the profile. */
  user: SessionUser;
  key: ApiKeyActor;
}

/**
 * The key behind `Authorization: Bearer <presented>`, or null — malformed, unknown, revoked,
 * expired, its creator deactivated, or its role now above its creator's (a demoted creator's key
 * stops working; decision 058). The caller answers every null with the same 401.
 */
export async function resolveApiKey(db: Db, presented: string, now = new Date()): Promise<ResolvedApiKey | null> {
  const hash = apiKeyHashOf(presented);
  if (!hash) return null;
  const [row] = await db
    .select({
      id: apiKeys.id,
      tenantId: apiKeys.tenant_id,
      nome: apiKeys.nome,
      role: apiKeys.role,
      prefixo: apiKeys.prefixo,
      tokenHash: apiKeys.token_hash,
      expiresAt: apiKeys.expires_at,
      revokedAt: apiKeys.revoked_at,
      lastUsedAt: apiKeys.last_used_at,
      profileId: profiles.id,
      profileTenantId: profiles.tenant_id,
      creatorRole: profiles.role,
      creatorOwner: profiles.is_proprietario,
      creatorActive: profiles.is_active,
      email: profiles.email,
      creatorNome: profiles.nome,
    })
    .from(apiKeys)
    .innerJoin(profiles, eq(profiles.id, apiKeys.created_by))
    .where(eq(apiKeys.token_hash, hash))
    .limit(1);
  if (!row || !sameHash(row.tokenHash, hash)) return null;
  if (row.revokedAt !== null || (row.expiresAt !== null && row.expiresAt <= now)) return null;
  if (!row.creatorActive || row.profileTenantId !== row.tenantId) return null;
  if (!roleWithinCreator({ role: row.creatorRole, isOwner: row.creatorOwner }, row.role)) return null;
  if (row.lastUsedAt === null || now.getTime() - row.lastUsedAt.getTime() >= LAST_USE_INTERVAL_MS) {
    const threshold = new Date(now.getTime() - LAST_USE_INTERVAL_MS);
    // Conditional, so several processes touching the same key at once write it once.
    await db
      .update(apiKeys)
      .set({ last_used_at: now })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.last_used_at), lt(apiKeys.last_used_at, threshold))));
  }
  return {
    key: { id: row.id, nome: row.nome, prefixo: row.prefixo },
    user: {
      sessionId: "",
      profileId: row.profileId,
      tenantId: row.tenantId,
      role: row.role as Role,
      // A key is never the owner (decision 058): owner-only actions stay with the person.
      isOwner: false,
      email: row.email,
      nome: row.creatorNome,
      locked: false,
      lockedContratoId: null,
    },
  };
}
