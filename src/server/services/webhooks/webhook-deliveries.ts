import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { webhookDeliveries } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { WebhookDeliveryView, WebhookEvent } from "../../../shared/schemas/webhooks.js";
import { AppError } from "../../errors.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import { type Actor, authorize } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { WEBHOOK_JOB_MAX_ATTEMPTS } from "./deliver-webhook.js";
import { endpointOf } from "./manage-webhook-endpoints.js";

/** How many of an endpoint's latest deliveries the screen lists. */
export const WEBHOOK_DELIVERIES_LISTED = 50;

function presentDelivery(row: typeof webhookDeliveries.$inferSelect): WebhookDeliveryView {
  return {
    id: row.id,
    evento: row.evento as WebhookEvent,
    status: row.status,
    tentativas: row.tentativas,
    criado_em: row.created_at.toISOString(),
    ultima_tentativa_em: row.ultima_tentativa_em?.toISOString() ?? null,
    proxima_tentativa_em: row.proxima_tentativa_em?.toISOString() ?? null,
    ultimo_status_http: row.ultimo_status_http,
    ultima_duracao_ms: row.ultima_duracao_ms,
    ultimo_erro: row.ultimo_erro,
    entregue_em: row.entregue_em?.toISOString() ?? null,
    corpo: row.corpo,
  };
}

/** The endpoint's latest deliveries, newest first (status, answer, time, attempts). */
export async function listWebhookDeliveries(db: Db, actor: Actor, endpointId: string): Promise<WebhookDeliveryView[]> {
  authorize(actor, "settings.manage");
  return withTenant(db, actor.tenantId, async (tx) => {
    await endpointOf(tx, actor.tenantId, endpointId);
    const rows = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.tenant_id, actor.tenantId), eq(webhookDeliveries.endpoint_id, endpointId)))
      .orderBy(desc(webhookDeliveries.created_at), desc(webhookDeliveries.id))
      .limit(WEBHOOK_DELIVERIES_LISTED);
    return rows.map(presentDelivery);
  });
}

/**
 * "Reenviar": the same message (same `webhook-id` and body) is tried again now, with three new
 * days of retries if it fails. An attempt under way is left to finish; a disabled endpoint must
 * be reactivated first (409).
 */
export async function resendWebhookDelivery(
  db: Db,
  actor: Actor,
  endpointId: string,
  deliveryId: string,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
  now = new Date(),
): Promise<WebhookDeliveryView> {
  authorize(actor, "settings.manage");
  return withTenant(db, actor.tenantId, async (tx) => {
    const endpoint = await endpointOf(tx, actor.tenantId, endpointId);
    const [current] = await tx
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.tenant_id, actor.tenantId),
          eq(webhookDeliveries.endpoint_id, endpointId),
          eq(webhookDeliveries.id, deliveryId),
        ),
      );
    if (!current) throw new AppError("WEBHOOK_DELIVERY_NOT_FOUND");
    if (!endpoint.ativo) throw new AppError("WEBHOOK_ENDPOINT_INACTIVE");
    if (current.status === "sending") return presentDelivery(current);
    const [row] = await tx
      .update(webhookDeliveries)
      .set({ status: "pending", tentar_ate: null, proxima_tentativa_em: now })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.tentativas, current.tentativas)))
      .returning();
    if (!row) return presentDelivery(current);
    await enqueueJob(tx, {
      kind: "webhook.deliver",
      payload: { deliveryId, attempt: row.tentativas + 1 },
      tenantId: actor.tenantId,
      runAt: now,
      maxAttempts: WEBHOOK_JOB_MAX_ATTEMPTS,
    });
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "webhook.resent", entityType: "webhook", entityId: endpointId, data: { entrega_id: deliveryId } },
    );
    return presentDelivery(row);
  });
}
