import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { tenants, type TenantSettings } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import {
  EMBED_MESSAGES,
  type EmbedSettings,
  isLocalHttpOrigin,
  parseEmbedOrigin,
} from "../../../shared/schemas/embedding.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { assertSettingsManager } from "../settings/clinic-settings-access.js";
import { findSigningTokenOrThrow } from "../signing/signing-tokens.js";

/**
 * The clinic's allowed origins as stored (tenants.settings.incorporacao.origens), each parsed again
 * on the way out: only bare origins ever reach a CSP header or a postMessage target (decision 071).
 * Whether http:// is allowed is decided when the list is saved.
 */
export function embedOriginsOf(settings: TenantSettings | null | undefined): string[] {
  const stored = settings?.incorporacao?.origens;
  if (!Array.isArray(stored)) return [];
  const origins: string[] = [];
  for (const value of stored) {
    if (typeof value !== "string") continue;
    const parsed = parseEmbedOrigin(value);
    if ("origin" in parsed) origins.push(parsed.origin);
  }
  return [...new Set(origins)];
}

export async function embedOrigins(tx: Tx, tenantId: string): Promise<string[]> {
  const [row] = await tx.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return embedOriginsOf(row?.settings);
}

/** GET /api/settings/embedding (owner and administrators). */
export async function getEmbedSettings(db: Db, actor: Actor): Promise<EmbedSettings> {
  assertSettingsManager(actor);
  return withTenant(db, actor.tenantId, async (tx) => ({ origens: await embedOrigins(tx, actor.tenantId) }));
}

export interface SaveEmbedSettingsOptions {
  db: Db;
  actor: Actor;
  input: { origens: string[] };
  production: boolean;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/**
 * PUT /api/settings/embedding: the whole list replaces the old one (jsonb_set on its own key, so
 * other settings written meanwhile stay), audited with what was added and removed. In production
 * an http:// origin is refused (the schema lets localhost through for development and tests).
 */
export async function saveEmbedSettings({
  db,
  actor,
  input,
  production,
  audit,
}: SaveEmbedSettingsOptions): Promise<EmbedSettings> {
  assertSettingsManager(actor);
  const insecure = input.origens.findIndex((origin) => isLocalHttpOrigin(origin));
  if (production && insecure >= 0) {
    throw new AppError("VALIDATION", EMBED_MESSAGES.originHttpsRequired, {
      issues: [{ path: `origens.${insecure}`, message: EMBED_MESSAGES.originHttpsRequired }],
    });
  }
  return withTenant(db, actor.tenantId, async (tx) => {
    const before = await embedOrigins(tx, actor.tenantId);
    const after = input.origens;
    await tx
      .update(tenants)
      .set({
        settings: sql`jsonb_set(${tenants.settings}, '{incorporacao}', ${JSON.stringify({ origens: after })}::jsonb, true)`,
        updated_at: new Date(),
      })
      .where(eq(tenants.id, actor.tenantId));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "settings.embedding_updated",
        entityType: "tenant",
        entityId: actor.tenantId,
        data: {
          adicionados: after.filter((origin) => !before.includes(origin)),
          removidos: before.filter((origin) => !after.includes(origin)),
        },
      },
    );
    return { origens: after };
  });
}

/**
 * The origins that may frame the page of this signing link: none for an unknown or malformed
 * token (the page then stays non-embeddable, and says nothing about the link). Read as the owner
 * role, like the token itself, before any tenant is known.
 */
export async function embedOriginsForToken(db: Db, token: string): Promise<string[]> {
  let tenantId: string;
  try {
    tenantId = (await findSigningTokenOrThrow(db, token)).tenantId;
  } catch (error) {
    if (error instanceof AppError) return [];
    throw error;
  }
  return withTenant(db, tenantId, (tx) => embedOrigins(tx, tenantId));
}
