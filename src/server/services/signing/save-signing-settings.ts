import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import type { SigningSettings, SigningSettingsView } from "./get-signing-settings.js";
import { type EmailChannel, requiresEmailCode } from "./signing-settings.js";

/** Owner/admin: turn the e-mail one-time code on or off for the clinic (audited with old and new value). */
export async function saveSigningSettings(
  db: Db,
  actor: Actor,
  channel: EmailChannel,
  input: SigningSettings,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
  now = new Date(),
): Promise<SigningSettingsView> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const before = await requiresEmailCode(tx, actor.tenantId);
    // jsonb_set on the one key, so other settings (clinic system…) written meanwhile are kept.
    await tx
      .update(tenants)
      .set({
        settings: sql`jsonb_set(${tenants.settings}, '{assinatura}', coalesce(${tenants.settings} -> 'assinatura', '{}'::jsonb) || ${JSON.stringify({ codigo_email: input.codigo_email })}::jsonb, true)`,
        updated_at: now,
      })
      .where(eq(tenants.id, actor.tenantId));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "settings.signing_updated",
        entityType: "tenant",
        entityId: actor.tenantId,
        data: { codigo_email: { antes: before, depois: input.codigo_email } },
      },
    );
    return {
      codigo_email: input.codigo_email,
      email_configurado: channel.smtp,
      codigo_disponivel: channel.usable || channel.sms,
      sms_configurado: channel.sms,
    };
  });
}
