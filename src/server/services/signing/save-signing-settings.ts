import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import type { SigningSettings, SigningSettingsView } from "./get-signing-settings.js";
import {
  type EmailChannel,
  professionalCodeSetting,
  professionalOrder,
  requiresEmailCode,
} from "./signing-settings.js";

export interface SaveSigningSettingsOptions {
  db: Db;
  actor: Actor;
  channel: EmailChannel;
  input: Partial<SigningSettings>;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * Owner/admin: the e-mail one-time code on or off, and when the responsible professional signs
 * (decision 050), and whether the professional needs their code (decision 078), for the clinic; a field left out keeps its value. Audited with old and new values.
 */
export async function saveSigningSettings({
  db,
  actor,
  channel,
  input,
  audit,
  now = new Date(),
}: SaveSigningSettingsOptions): Promise<SigningSettingsView> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const before: SigningSettings = {
      codigo_email: await requiresEmailCode(tx, actor.tenantId),
      ordem_profissional: await professionalOrder(tx, actor.tenantId),
      codigo_profissional: await professionalCodeSetting(tx, actor.tenantId, channel),
    };
    const after: SigningSettings = { ...before, ...input };
    // jsonb_set on the one key, so other settings (clinic system…) written meanwhile are kept; only
    // the keys given are stored, so a default never set (the professional's code follows SMTP,
    // decision 078) is not frozen by saving another option.
    const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
    await tx
      .update(tenants)
      .set({
        settings: sql`jsonb_set(${tenants.settings}, '{assinatura}', coalesce(${tenants.settings} -> 'assinatura', '{}'::jsonb) || ${JSON.stringify(given)}::jsonb, true)`,
        updated_at: now,
      })
      .where(eq(tenants.id, actor.tenantId));
    const changes = (Object.keys(after) as (keyof SigningSettings)[])
      .filter((key) => input[key] !== undefined)
      .map((key) => [key, { antes: before[key], depois: after[key] }] as const);
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "settings.signing_updated",
        entityType: "tenant",
        entityId: actor.tenantId,
        data: Object.fromEntries(changes),
      },
    );
    return {
      ...after,
      email_configurado: channel.smtp,
      email_entregavel: channel.usable,
      codigo_disponivel: channel.usable || channel.sms || channel.whatsapp === true,
      sms_configurado: channel.sms,
    };
  });
}
