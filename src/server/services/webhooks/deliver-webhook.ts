import { and, eq, lte, sql } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import type { JobContext } from "../../jobs/job-context.js";
import { recordSystemNotice } from "../notices/record-system-notice.js";
import { postWebhook, type WebhookPostResult } from "./post-webhook.js";
import { openWebhookSecret, signWebhook, webhookMessageId } from "./webhook-secret.js";

/** A delivery is retried for three days from its first attempt; an endpoint failing that long is disabled. */
export const WEBHOOK_RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;
/** Jobs of a delivery attempt: the queue retries only our own failures (database), never the receiver's. */
export const WEBHOOK_JOB_MAX_ATTEMPTS = 20;

/** Pause after failed attempt n (1, 2, …): 5 s, 30 s, 3 min, 18 min, 1 h 48 min, then every 10 h. */
export function webhookRetryDelayMs(attempt: number): number {
  return Math.min(10 * 60 * 60_000, 5_000 * 6 ** Math.max(0, attempt - 1));
}

export interface DeliverPayload {
  deliveryId: string;
  /** The attempt this job is for: a job of an attempt already made (a Reenviar raced it) does nothing. */
  attempt: number;
}

/** Test seam: resolve names without DNS (see post-webhook.ts). */
export interface DeliverOptions {
  resolve?: (host: string) => Promise<string[]>;
}

export interface DeliverWebhookOptions extends DeliverOptions {
  ctx: JobContext;
  payload: DeliverPayload;
  tenantId: string;
  now: Date;
}

/**
 * One attempt of one delivery (job `webhook.deliver`, decision 062). The job queue hands a job to
 * one worker (SKIP LOCKED); the delivery row is claimed again here by its attempt number, so an
 * attempt is made once even when a job is run twice — except after a crash mid-request, when the
 * attempt is made again once the first could no longer be under way (receivers drop repeats by
 * `webhook-id`). The receiver's failures are recorded and the next attempt is a new job; the job
 * itself fails only when our own database does.
 */
export async function deliverWebhook({ ctx, payload, tenantId, now, resolve }: DeliverWebhookOptions): Promise<void> {
  const staleBefore = new Date(now.getTime() - ctx.env.WEBHOOK_TIMEOUT_MS - 60_000);
  const claim = await withTenant(ctx.db, tenantId, async (tx) => {
    const [found] = await tx
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
      .where(and(eq(webhookDeliveries.tenant_id, tenantId), eq(webhookDeliveries.id, payload.deliveryId)));
    if (!found) return { kind: "gone" as const };
    if (!found.endpoint.ativo) {
      await tx
        .update(webhookDeliveries)
        .set({ status: "failed", proxima_tentativa_em: null, ultimo_erro: "Endpoint desativado" })
        .where(and(eq(webhookDeliveries.id, payload.deliveryId), eq(webhookDeliveries.status, "pending")));
      return { kind: "gone" as const };
    }
    const [claimed] = await tx
      .update(webhookDeliveries)
      .set({
        status: "sending",
        tentativas: payload.attempt,
        ultima_tentativa_em: now,
        tentar_ate: sql`coalesce(${webhookDeliveries.tentar_ate}, ${new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS)})`,
        proxima_tentativa_em: null,
      })
      .where(
        and(
          eq(webhookDeliveries.id, payload.deliveryId),
          sql`((${webhookDeliveries.status} = 'pending' and ${webhookDeliveries.tentativas} = ${payload.attempt - 1})
            or (${webhookDeliveries.status} = 'sending' and ${webhookDeliveries.tentativas} = ${payload.attempt}
              and ${webhookDeliveries.ultima_tentativa_em} < ${staleBefore}))`,
        ),
      )
      .returning();
    if (claimed) return { kind: "claimed" as const, delivery: claimed, endpoint: found.endpoint };
    if (found.delivery.status === "sending" && found.delivery.tentativas === payload.attempt)
      return { kind: "in-flight" as const };
    return { kind: "gone" as const };
  });
  // Another run of this attempt may still be waiting for the receiver: the queue tries again later.
  if (claim.kind === "in-flight") throw new Error("webhook attempt still under way elsewhere");
  if (claim.kind === "gone") return;

  const { delivery, endpoint } = claim;
  const id = webhookMessageId(delivery.id);
  const timestamp = Math.floor(now.getTime() / 1000);
  let result: WebhookPostResult;
  try {
    const secret = openWebhookSecret(ctx.secretBox, endpoint.id, endpoint.segredo_sealed);
    // Within 24 hours of a rotation the previous secret signs too (space-separated, Standard Webhooks).
    const previous =
      endpoint.segredo_anterior_sealed && endpoint.segredo_anterior_ate && endpoint.segredo_anterior_ate > now
        ? openWebhookSecret(ctx.secretBox, endpoint.id, endpoint.segredo_anterior_sealed)
        : null;
    const signatures = [secret, ...(previous ? [previous] : [])]
      .map((key) => signWebhook(key, id, timestamp, delivery.corpo))
      .join(" ");
    result = await postWebhook(
      endpoint.url,
      {
        "content-type": "application/json",
        "user-agent": "Consentir-Webhooks/1",
        "webhook-id": id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signatures,
      },
      delivery.corpo,
      {
        allowPrivate: ctx.env.WEBHOOKS_ALLOW_PRIVATE,
        timeoutMs: ctx.env.WEBHOOK_TIMEOUT_MS,
        ...(resolve ? { resolve } : {}),
      },
    );
  } catch (error) {
    result = { status: null, durationMs: 0, error: `Erro interno: ${String(error)}`.slice(0, 300) };
  }
  await recordAttempt({ ctx, tenantId, delivery, endpoint, result, attempt: payload.attempt, now });
}

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type EndpointRow = typeof webhookEndpoints.$inferSelect;

interface RecordAttemptOptions {
  ctx: JobContext;
  tenantId: string;
  delivery: DeliveryRow;
  endpoint: EndpointRow;
  result: WebhookPostResult;
  attempt: number;
  now: Date;
}

async function recordAttempt({
  ctx,
  tenantId,
  delivery,
  endpoint,
  result,
  attempt,
  now,
}: RecordAttemptOptions): Promise<void> {
  const log = {
    ultimo_status_http: result.status,
    ultima_duracao_ms: result.durationMs,
    ultimo_erro: result.error,
  };
  await withTenant(ctx.db, tenantId, async (tx) => {
    if (result.error === null) {
      await tx
        .update(webhookDeliveries)
        .set({ ...log, status: "delivered", entregue_em: now, proxima_tentativa_em: null })
        .where(eq(webhookDeliveries.id, delivery.id));
      await tx.update(webhookEndpoints).set({ falhando_desde: null }).where(eq(webhookEndpoints.id, endpoint.id));
      return;
    }
    const deadline = delivery.tentar_ate ?? new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS);
    const final = now.getTime() >= deadline.getTime();
    const next = final ? null : new Date(Math.min(now.getTime() + webhookRetryDelayMs(attempt), deadline.getTime()));
    await tx
      .update(webhookDeliveries)
      .set({ ...log, status: final ? "failed" : "pending", proxima_tentativa_em: next })
      .where(eq(webhookDeliveries.id, delivery.id));
    if (next) {
      await enqueueJob(tx, {
        kind: "webhook.deliver",
        payload: { deliveryId: delivery.id, attempt: attempt + 1 },
        tenantId,
        runAt: next,
        maxAttempts: WEBHOOK_JOB_MAX_ATTEMPTS,
      });
    }
    await tx
      .update(webhookEndpoints)
      .set({ falhando_desde: sql`coalesce(${webhookEndpoints.falhando_desde}, ${now})` })
      .where(eq(webhookEndpoints.id, endpoint.id));
    // Three days without a success: disabled once (the conditional UPDATE), with a notice.
    const [disabled] = await tx
      .update(webhookEndpoints)
      .set({ ativo: false, desativado_em: now })
      .where(
        and(
          eq(webhookEndpoints.id, endpoint.id),
          eq(webhookEndpoints.ativo, true),
          lte(webhookEndpoints.falhando_desde, new Date(now.getTime() - WEBHOOK_RETRY_WINDOW_MS)),
        ),
      )
      .returning({ url: webhookEndpoints.url });
    if (!disabled) return;
    await tx
      .update(webhookDeliveries)
      .set({ status: "failed", proxima_tentativa_em: null, ultimo_erro: "Endpoint desativado" })
      .where(and(eq(webhookDeliveries.endpoint_id, endpoint.id), eq(webhookDeliveries.status, "pending")));
    await recordSystemNotice(tx, tenantId, {
      kind: "webhook.disabled",
      title: "Webhook desativado",
      body: `O endpoint ${disabled.url.slice(0, 300)} não recebeu os eventos por três dias seguidos (último erro: ${(result.error ?? "").slice(0, 200)}) e foi desativado. Corrija o endereço e reative-o em Configurações → Webhooks.`,
      link: "/settings",
    });
  });
}
