import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { webhookDeliveries } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import {
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveryEvent,
  type WebhookDeliveryView,
} from "../../../shared/schemas/webhooks.js";
import { AppError } from "../../errors.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import { type Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { WEBHOOK_JOB_MAX_ATTEMPTS } from "./deliver-webhook.js";
import { endpointOf } from "./manage-webhook-endpoints.js";

/** How many of an endpoint's latest deliveries the screen lists. */
export const WEBHOOK_DELIVERIES_LISTED = 50;

function presentDelivery(row: typeof webhookDeliveries.$inferSelect): WebhookDeliveryView {
  return {
    id: row.id,
    evento: row.evento as WebhookDeliveryEvent,
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

export interface ResendWebhookDeliveryOptions {
  db: Db;
  actor: Actor;
  endpointId: string;
  deliveryId: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * "Reenviar": the same message (same `webhook-id` and body) is tried again now, with three new
 * days of retries if it fails. An attempt under way is left to finish; a disabled endpoint must
 * be reactivated first (409).
 */
export async function resendWebhookDelivery({
  db,
  actor,
  endpointId,
  deliveryId,
  audit,
  now = new Date(),
}: ResendWebhookDeliveryOptions): Promise<WebhookDeliveryView> {
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

export interface SendWebhookTestEventOptions {
  db: Db;
  actor: Actor;
  endpointId: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * "Enviar evento de teste": one delivery of type `webhook.test` whose data is the endpoint's id
 * only, signed and logged like any other, tried once (no three days of retries: the screen shows
 * the answer at once, and "Reenviar" tries again). A disabled endpoint must be reactivated first.
 */
export async function sendWebhookTestEvent({
  db,
  actor,
  endpointId,
  audit,
  now = new Date(),
}: SendWebhookTestEventOptions): Promise<WebhookDeliveryView> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const endpoint = await endpointOf(tx, actor.tenantId, endpointId);
    if (!endpoint.ativo) throw new AppError("WEBHOOK_ENDPOINT_INACTIVE");
    const corpo = JSON.stringify({
      type: WEBHOOK_TEST_EVENT,
      timestamp: now.toISOString(),
      data: { endpoint_id: endpointId },
    });
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({
        tenant_id: actor.tenantId,
        endpoint_id: endpointId,
        evento: WEBHOOK_TEST_EVENT,
        corpo,
        proxima_tentativa_em: now,
        tentar_ate: now,
        created_at: now,
      })
      .returning();
    if (!row) throw new AppError("INTERNAL");
    await enqueueJob(tx, {
      kind: "webhook.deliver",
      payload: { deliveryId: row.id, attempt: 1 },
      tenantId: actor.tenantId,
      runAt: now,
      maxAttempts: WEBHOOK_JOB_MAX_ATTEMPTS,
    });
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "webhook.test_sent", entityType: "webhook", entityId: endpointId, data: { entrega_id: row.id } },
    );
    return presentDelivery(row);
  });
}
