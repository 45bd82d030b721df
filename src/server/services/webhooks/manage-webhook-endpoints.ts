import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/client.js";
import { webhookEndpoints } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import {
  type CreatedWebhookEndpoint,
  type RotatedWebhookSecret,
  WEBHOOK_SECRET_GRACE_MS,
  WEBHOOK_MESSAGES,
  type WebhookEndpointView,
  type WebhookEvent,
  type webhookEndpointInputSchema,
  type webhookEndpointUpdateSchema,
} from "../../../shared/schemas/webhooks.js";
import type { z } from "zod";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { type Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { newWebhookSecret, sealWebhookSecret } from "./webhook-secret.js";

type Audit = Omit<AuditContext, "tenantId" | "actorProfileId">;
type EndpointRow = typeof webhookEndpoints.$inferSelect;

export interface WebhookSettings {
  db: Db;
  secretBox: SecretBox;
  /** NODE_ENV=production: only https:// URLs. */
  production: boolean;
}

export function presentWebhookEndpoint(row: EndpointRow, now = new Date()): WebhookEndpointView {
  const graceUntil =
    row.segredo_anterior_sealed && row.segredo_anterior_ate && row.segredo_anterior_ate > now
      ? row.segredo_anterior_ate.toISOString()
      : null;
  return {
    id: row.id,
    url: row.url,
    descricao: row.descricao,
    eventos: row.eventos as WebhookEvent[],
    ativo: row.ativo,
    falhando_desde: row.falhando_desde?.toISOString() ?? null,
    desativado_em: row.desativado_em?.toISOString() ?? null,
    segredo_anterior_ate: graceUntil,
    criado_em: row.created_at.toISOString(),
  };
}

function requireHttpsInProduction(settings: WebhookSettings, url: string | undefined): void {
  if (url === undefined || !settings.production || url.startsWith("https://")) return;
  throw new AppError("VALIDATION", WEBHOOK_MESSAGES.urlHttpsRequired, {
    issues: [{ path: "url", message: WEBHOOK_MESSAGES.urlHttpsRequired }],
  });
}

/** The clinic's endpoint `id`, or 404 (another clinic's is not found either). */
export async function endpointOf(tx: DbOrTx, tenantId: string, id: string): Promise<EndpointRow> {
  const [row] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenant_id, tenantId), eq(webhookEndpoints.id, id)));
  if (!row) throw new AppError("WEBHOOK_ENDPOINT_NOT_FOUND");
  return row;
}

const auditContext = (actor: Actor, audit: Audit) => ({
  tenantId: actor.tenantId,
  actorProfileId: actor.profileId,
  ...audit,
});

export async function listWebhookEndpoints(db: Db, actor: Actor): Promise<WebhookEndpointView[]> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const rows = await tx
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.tenant_id, actor.tenantId))
      .orderBy(asc(webhookEndpoints.created_at), asc(webhookEndpoints.id));
    return rows.map((row) => presentWebhookEndpoint(row));
  });
}

/** A new endpoint; its secret is in this answer only (sealed at rest, decision 062). */
export async function createWebhookEndpoint(
  settings: WebhookSettings,
  actor: Actor,
  input: z.output<typeof webhookEndpointInputSchema>,
  audit: Audit,
): Promise<CreatedWebhookEndpoint> {
  requireHttpsInProduction(settings, input.url);
  const id = randomUUID();
  const secret = newWebhookSecret();
  return withTenant(settings.db, actor.tenantId, async (tx) => {
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        id,
        tenant_id: actor.tenantId,
        url: input.url,
        descricao: input.descricao ?? null,
        eventos: input.eventos,
        segredo_sealed: sealWebhookSecret(settings.secretBox, id, secret),
        created_by: actor.profileId,
      })
      .returning();
    if (!row) throw new AppError("INTERNAL");
    await recordAuditEvent(tx, auditContext(actor, audit), {
      action: "webhook.created",
      entityType: "webhook",
      entityId: id,
      data: { url: input.url, eventos: input.eventos },
    });
    return { endpoint: presentWebhookEndpoint(row), segredo: secret };
  });
}

export interface UpdateWebhookEndpointOptions {
  settings: WebhookSettings;
  actor: Actor;
  id: string;
  input: z.output<typeof webhookEndpointUpdateSchema>;
  audit: Audit;
  now?: Date;
}

/** Changes URL, description or events; `ativo: true` reactivates (and forgets the failures). */
export async function updateWebhookEndpoint({
  settings,
  actor,
  id,
  input,
  audit,
  now = new Date(),
}: UpdateWebhookEndpointOptions): Promise<WebhookEndpointView> {
  requireHttpsInProduction(settings, input.url);
  return withTenant(settings.db, actor.tenantId, async (tx) => {
    const current = await endpointOf(tx, actor.tenantId, id);
    const reactivate = input.ativo === true && !current.ativo;
    const deactivate = input.ativo === false && current.ativo;
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.descricao !== undefined ? { descricao: input.descricao ?? null } : {}),
        ...(input.eventos !== undefined ? { eventos: input.eventos } : {}),
        ...(reactivate ? { ativo: true, falhando_desde: null, desativado_em: null } : {}),
        ...(deactivate ? { ativo: false, desativado_em: now } : {}),
        updated_at: now,
      })
      .where(and(eq(webhookEndpoints.tenant_id, actor.tenantId), eq(webhookEndpoints.id, id)))
      .returning();
    if (!row) throw new AppError("WEBHOOK_ENDPOINT_NOT_FOUND");
    await recordAuditEvent(tx, auditContext(actor, audit), {
      action: "webhook.updated",
      entityType: "webhook",
      entityId: id,
      data: {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.eventos !== undefined ? { eventos: input.eventos } : {}),
        ...(input.ativo !== undefined ? { ativo: input.ativo } : {}),
      },
    });
    return presentWebhookEndpoint(row);
  });
}

/** Removes the endpoint and its delivery log; deliveries still queued for it do nothing. */
export async function deleteWebhookEndpoint(db: Db, actor: Actor, id: string, audit: Audit): Promise<void> {
  await withTenant(db, actor.tenantId, async (tx) => {
    const current = await endpointOf(tx, actor.tenantId, id);
    await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.tenant_id, actor.tenantId), eq(webhookEndpoints.id, id)));
    await recordAuditEvent(tx, auditContext(actor, audit), {
      action: "webhook.deleted",
      entityType: "webhook",
      entityId: id,
      data: { url: current.url },
    });
  });
}

export interface RotateWebhookSecretOptions {
  settings: WebhookSettings;
  actor: Actor;
  id: string;
  audit: Audit;
  now?: Date;
}

/**
 * A new secret, shown in this answer only. The previous one keeps signing next to it for 24 hours
 * (two `v1,` signatures, as Standard Webhooks allows), so the receiver can switch without losing
 * events; a second rotation within that time drops the oldest at once.
 */
export async function rotateWebhookSecret({
  settings,
  actor,
  id,
  audit,
  now = new Date(),
}: RotateWebhookSecretOptions): Promise<RotatedWebhookSecret> {
  const secret = newWebhookSecret();
  const graceUntil = new Date(now.getTime() + WEBHOOK_SECRET_GRACE_MS);
  return withTenant(settings.db, actor.tenantId, async (tx) => {
    const current = await endpointOf(tx, actor.tenantId, id);
    await tx
      .update(webhookEndpoints)
      .set({
        segredo_sealed: sealWebhookSecret(settings.secretBox, id, secret),
        segredo_anterior_sealed: current.segredo_sealed,
        segredo_anterior_ate: graceUntil,
        updated_at: now,
      })
      .where(and(eq(webhookEndpoints.tenant_id, actor.tenantId), eq(webhookEndpoints.id, id)));
    await recordAuditEvent(tx, auditContext(actor, audit), {
      action: "webhook.secret_rotated",
      entityType: "webhook",
      entityId: id,
      data: { anterior_valido_ate: graceUntil.toISOString() },
    });
    return { segredo: secret, anterior_valido_ate: graceUntil.toISOString() };
  });
}
