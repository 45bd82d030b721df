import { CLINIC_TIME_ZONE } from "../dates/sao-paulo.js";

/**
 * Automatic reminders (decision 059): a link not signed after 24 h, again at 72 h, and 24 h before
 * it expires; at most `maximo` (3 by default); only between 8 h and 20 h in São Paulo; never once the
 * document left sent/viewed.
 */
export const REMINDER_DEFAULTS = { ativo: true, maximo: 3 } as const;
export const REMINDER_MAX = 3;
/** Reminders are written only from 08:00 to 20:00, São Paulo wall clock. */
export const REMINDER_DAY_START_HOUR = 8;
export const REMINDER_DAY_END_HOUR = 20;

const HOUR_MS = 60 * 60 * 1000;
/** Two reminders closer than this are one (a short deadline brings "24 h before" near "72 h"). */
const MIN_GAP_MS = 6 * HOUR_MS;

export interface ReminderSettings {
  ativo: boolean;
  maximo: number;
}

/** The clinic's choice, with the defaults for whatever it never set (on, 3 reminders). */
export function reminderSettingsOf(raw: { ativo?: unknown; maximo?: unknown } | null | undefined): ReminderSettings {
  const maximo =
    typeof raw?.maximo === "number" && Number.isInteger(raw.maximo) && raw.maximo >= 1 && raw.maximo <= REMINDER_MAX
      ? raw.maximo
      : REMINDER_DEFAULTS.maximo;
  return { ativo: raw?.ativo !== false, maximo };
}

/**
 * Does a reminder still go out for a document in this status? Only while it waits for the patient
 * (sent or viewed): any other status — signed, cancelled, expired, and any status added later
 * (refused, revoked…) — is final for reminders.
 */
export function remindersContinue(status: string): boolean {
  return status === "sent" || status === "viewed";
}

const hourFormat = new Intl.DateTimeFormat("en-GB", { timeZone: CLINIC_TIME_ZONE, hour: "2-digit", hourCycle: "h23" });

function saoPauloHour(instant: Date): number {
  return Number(hourFormat.format(instant));
}

/** Is `instant` within the reminder hours (08:00 ≤ São Paulo time < 20:00)? */
export function isReminderHour(instant: Date): boolean {
  const hour = saoPauloHour(instant);
  return hour >= REMINDER_DAY_START_HOUR && hour < REMINDER_DAY_END_HOUR;
}

/**
 * `instant` itself when within the reminder hours, else the next 08:00 in São Paulo. Walks in whole
 * hours then trims minutes, so it follows the zone's rules (no fixed offset).
 */
export function nextReminderHour(instant: Date): Date {
  if (isReminderHour(instant)) return instant;
  let t = instant.getTime();
  for (let i = 0; i < 48 && !isReminderHour(new Date(t)); i += 1) t += HOUR_MS;
  // t now lies in the 08:xx hour: go back to its start (minutes, seconds, ms of the SP clock).
  const d = new Date(t);
  const minuteParts = new Intl.DateTimeFormat("en-GB", {
    timeZone: CLINIC_TIME_ZONE,
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(d);
  const minutes = Number(minuteParts.find((p) => p.type === "minute")?.value ?? 0);
  const seconds = Number(minuteParts.find((p) => p.type === "second")?.value ?? 0);
  return new Date(t - minutes * 60_000 - seconds * 1000 - d.getUTCMilliseconds());
}

/**
 * When each reminder of a link sent at `sentAt` and expiring at `expiresAt` goes out: 24 h, 72 h
 * and 24 h before the deadline, each moved to the next daytime hour, only before the deadline,
 * near ones merged, the first `maximo`.
 */
export function reminderSchedule(input: { sentAt: Date; expiresAt: Date; maximo: number }): Date[] {
  const sent = input.sentAt.getTime();
  const expires = input.expiresAt.getTime();
  const candidates = [sent + 24 * HOUR_MS, sent + 72 * HOUR_MS, expires - 24 * HOUR_MS]
    .map((t) => nextReminderHour(new Date(t)).getTime())
    .filter((t) => t > sent && t < expires)
    .sort((a, b) => a - b);
  const out: number[] = [];
  for (const t of candidates) {
    const last = out.at(-1);
    if (last === undefined || t - last >= MIN_GAP_MS) out.push(t);
  }
  return out.slice(0, Math.max(0, Math.min(REMINDER_MAX, input.maximo))).map((t) => new Date(t));
}
