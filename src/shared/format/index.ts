/**
 * The one place dates and numbers become text (pt-BR): instants are read in the clinic's civil
 * calendar (America/Sao_Paulo) whatever the reader's machine says; dates are dd/mm/aaaa; numbers
 * use the decimal comma and dotted thousands ("1.234", "20,0%"). Missing or malformed → "—".
 */
import { CLINIC_TIME_ZONE } from "../dates/sao-paulo.js";

export { CLINIC_TIME_ZONE };

/** What a screen shows for a date or number it does not have. */
export const MISSING = "—";

const day = new Intl.DateTimeFormat("pt-BR", { timeZone: CLINIC_TIME_ZONE, day: "2-digit", month: "2-digit", year: "numeric" });
const dayTime = new Intl.DateTimeFormat("pt-BR", {
  timeZone: CLINIC_TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const time = new Intl.DateTimeFormat("pt-BR", { timeZone: CLINIC_TIME_ZONE, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const integer = new Intl.NumberFormat("pt-BR");
const decimals = new Map<number, Intl.NumberFormat>();

/** An instant as the API sends it (ISO text), a Date or epoch milliseconds. */
export type Instant = Date | string | number | null | undefined;

function toDate(value: Instant): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "2025-03-01T02:00:00Z" → "28/02/2025" (the São Paulo date). */
export function formatDate(value: Instant): string {
  const date = toDate(value);
  return date ? day.format(date) : MISSING;
}

/** An instant → "28/02/2025, 23:00" in São Paulo. */
export function formatDateTime(value: Instant): string {
  const date = toDate(value);
  return date ? dayTime.format(date) : MISSING;
}

/** An instant → "28/02/2025 às 23:00" in São Paulo (sentences, e-mails, notices). */
export function formatDateTimeAt(value: Instant): string {
  const date = toDate(value);
  if (!date) return MISSING;
  const parts = Object.fromEntries(dayTime.formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.day}/${parts.month}/${parts.year} às ${parts.hour}:${parts.minute}`;
}

/** An instant → "23:00" in São Paulo. */
export function formatTime(value: Instant): string {
  const date = toDate(value);
  return date ? time.format(date) : MISSING;
}

/** A calendar date "2026-12-03" (a birth date, a procedure date) → "03/12/2026", never shifted by a time zone. */
export function formatCalendarDate(iso: string | null | undefined): string {
  const match = iso ? /^(\d{4})-(\d{2})-(\d{2})/.exec(iso) : null;
  return match ? `${match[3]}/${match[2]}/${match[1]}` : MISSING;
}

function decimalFormat(fractionDigits: number): Intl.NumberFormat {
  let format = decimals.get(fractionDigits);
  if (!format) {
    format = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits });
    decimals.set(fractionDigits, format);
  }
  return format;
}

/** 1234 → "1.234"; with `fractionDigits`, 20 → "20,0". */
export function formatNumber(value: number | null | undefined, fractionDigits?: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  return fractionDigits === undefined ? integer.format(value) : decimalFormat(fractionDigits).format(value);
}

/** A percentage already in hundreds: 20 → "20,0%", 33.333 → "33,3%" (one decimal unless told). */
export function formatPercent(value: number | null | undefined, fractionDigits = 1): string {
  const text = formatNumber(value, fractionDigits);
  return text === MISSING ? MISSING : `${text}%`;
}
