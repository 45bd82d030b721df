import type { DbOrTx } from "../../../db/client.js";
import { auditEvents } from "../../../db/schema.js";
import { currentApiKey } from "../../lib/request-api-key.js";

export interface AuditContext {
  tenantId: string;
  actorProfileId: string | null;
  ip?: string | undefined;
  userAgent?: string | undefined;
}

/**
 * Appends one event to the tenant's audit trail, inside the caller's transaction (LGPD: who saw
 * or changed which data, when, from where). The hash chain arrives with the signing issue.
 * A request made with an API key names the key in `data.chave_api` (id, nome, prefixo), inside
 * what the chain hashes; `actor_profile_id` stays the person who created the key (decision 058).
 */
export async function recordAuditEvent(tx: DbOrTx, context: AuditContext, event: AuditEventInput): Promise<void> {
  await recordAuditEvents(tx, context, [event]);
}

export interface AuditEventInput {
  action: string;
  entityType: string;
  entityId?: string;
  data?: Record<string, unknown>;
}

/**
 * Several events of one context in one INSERT (decision 073), chained in the order given: the
 * chain trigger runs for each row as a single insert's would.
 */
export async function recordAuditEvents(
  tx: DbOrTx,
  context: AuditContext,
  events: readonly AuditEventInput[],
): Promise<void> {
  if (events.length === 0) return;
  const apiKey = currentApiKey();
  await tx.insert(auditEvents).values(
    events.map((event) => ({
      tenant_id: context.tenantId,
      actor_profile_id: context.actorProfileId,
      action: event.action,
      entity_type: event.entityType,
      entity_id: event.entityId,
      ip_address: context.ip,
      user_agent: context.userAgent?.slice(0, 500),
      data: apiKey ? { ...event.data, chave_api: apiKey } : (event.data ?? {}),
    })),
  );
}
