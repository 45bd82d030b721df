import type { Tx } from "../../../db/client.js";
import { reminderSchedule } from "../../../shared/reminders/reminder-schedule.js";
import { enqueueJob, type ReminderChannel } from "../../jobs/enqueue-job.js";
import { reminderSettings } from "./reminder-settings.js";

/**
 * On Enviar (decision 059): queues the first automatic reminder of the link, in the send's
 * transaction, with the channels the link went by. Nothing is queued when the clinic turned
 * reminders off, when no channel can carry one, or when the deadline leaves no reminder time.
 * Each reminder, when it runs, queues the next.
 */
export async function scheduleReminders(
  tx: Tx,
  input: { tenantId: string; contratoId: string; sentAt: Date; expiresAt: Date; canais: ReminderChannel[] },
): Promise<Date | null> {
  if (input.canais.length === 0) return null;
  const settings = await reminderSettings(tx, input.tenantId);
  if (!settings.ativo) return null;
  const [first] = reminderSchedule({ sentAt: input.sentAt, expiresAt: input.expiresAt, maximo: settings.maximo });
  if (!first) return null;
  await enqueueJob(tx, {
    kind: "document.remind",
    tenantId: input.tenantId,
    payload: { contratoId: input.contratoId, ordem: 1, canais: input.canais },
    dedupeKey: `remind:${input.contratoId}:1:${first.getTime()}`,
    runAt: first,
  });
  return first;
}
