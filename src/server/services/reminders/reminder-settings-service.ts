import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { ReminderSettingsInput, ReminderSettingsView } from "../../../shared/schemas/reminders.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { assertSettingsManager } from "../settings/clinic-settings-access.js";
import { reminderSettings } from "./reminder-settings.js";

/** GET /api/settings/reminders (owner and administrators). */
export async function getReminderSettings(db: Db, actor: Actor, whatsapp: boolean): Promise<ReminderSettingsView> {
  assertSettingsManager(actor);
  return withTenant(db, actor.tenantId, async (tx) => ({
    ...(await reminderSettings(tx, actor.tenantId)),
    whatsapp_configurado: whatsapp,
  }));
}

export interface SaveReminderSettingsOptions {
  db: Db;
  actor: Actor;
  input: ReminderSettingsInput;
  whatsapp: boolean;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/**
 * PUT /api/settings/reminders: on/off and how many (1–3); a field left out keeps its value.
 * jsonb_set on its own key, so other settings written meanwhile stay; audited with old and new.
 */
export async function saveReminderSettings({
  db,
  actor,
  input,
  whatsapp,
  audit,
}: SaveReminderSettingsOptions): Promise<ReminderSettingsView> {
  assertSettingsManager(actor);
  return withTenant(db, actor.tenantId, async (tx) => {
    const before = await reminderSettings(tx, actor.tenantId);
    const after = {
      ativo: input.ativo ?? before.ativo,
      maximo: input.maximo ?? before.maximo,
    };
    await tx
      .update(tenants)
      .set({
        settings: sql`jsonb_set(${tenants.settings}, '{lembretes}', ${JSON.stringify(after)}::jsonb, true)`,
        updated_at: new Date(),
      })
      .where(eq(tenants.id, actor.tenantId));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "settings.reminders_updated",
        entityType: "tenant",
        entityId: actor.tenantId,
        data: { antes: before, depois: after },
      },
    );
    return { ...after, whatsapp_configurado: whatsapp };
  });
}
