import { eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { tenants } from "../../../db/schema.js";
import { type ReminderSettings, reminderSettingsOf } from "../../../shared/reminders/reminder-schedule.js";

/** The clinic's automatic-reminder setting (tenants.settings.lembretes; on, 3 at most, when never set). */
export async function reminderSettings(tx: Tx, tenantId: string): Promise<ReminderSettings> {
  const [row] = await tx.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return reminderSettingsOf(row?.settings.lembretes);
}
