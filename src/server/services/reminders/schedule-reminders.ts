import type { Tx } from "../../../db/client.js";
import { reminderSchedule } from "../../../shared/reminders/reminder-schedule.js";
import { enqueueJob, type ReminderChannel } from "../../jobs/enqueue-job.js";
import { reminderSettings } from "./reminder-settings.js";

/**
 * On Enviar (decision 059) and Reenviar (decision 066): queues the first automatic reminder of the
 * link, in the send's transaction, with the channels the link went by. Nothing is queued when the
 * clinic turned reminders off, when no channel can carry one (the patient's, or a witness's
 * e-mail: `testemunhas`), or when the deadline leaves no reminder time. Each reminder, when it
 * runs, queues the next. `restart`: Reenviar's new chain — its start and the reminders written
 * before it (the old chain's jobs stop when they see another start).
 */
export async function scheduleReminders(
  tx: Tx,
  input: {
    tenantId: string;
    contratoId: string;
    sentAt: Date;
    expiresAt: Date;
    canais: ReminderChannel[];
    testemunhas?: boolean;
    restart?: { base: number };
  },
): Promise<Date | null> {
  if (input.canais.length === 0 && !input.testemunhas) return null;
  const settings = await reminderSettings(tx, input.tenantId);
  if (!settings.ativo) return null;
  const [first] = reminderSchedule({ sentAt: input.sentAt, expiresAt: input.expiresAt, maximo: settings.maximo });
  if (!first) return null;
  await enqueueJob(tx, {
    kind: "document.remind",
    tenantId: input.tenantId,
    payload: {
      contratoId: input.contratoId,
      ordem: (input.restart?.base ?? 0) + 1,
      canais: input.canais,
      ...(input.restart ? { desde: input.sentAt.toISOString(), base: input.restart.base } : {}),
    },
    dedupeKey: `remind:${input.contratoId}:${(input.restart?.base ?? 0) + 1}:${first.getTime()}`,
    runAt: first,
  });
  return first;
}
