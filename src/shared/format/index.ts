/**
 * The one place dates and numbers become text (pt-BR): instants are read in the clinic's civil
 * calendar (America/Sao_Paulo) whatever the reader's machine says; dates are dd/mm/aaaa; numbers
 * use the decimal comma and dotted thousands ("1.234", "20,0%"). Missing or malformed → "—".
 */
import { CLINIC_TIME_ZONE } from "../dates/sao-paulo.js";

export { CLINIC_TIME_ZONE };

/** What a screen shows for a date or number it does not have. */
export const MISSING = "—";

const day = new Intl.DateTimeFormat("pt-BR", {
  timeZone: CLINIC_TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
});
const dayTime = new Intl.DateTimeFormat("pt-BR", {
  timeZone: CLINIC_TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const time = new Intl.DateTimeFormat("pt-BR", {
  timeZone: CLINIC_TIME_ZONE,
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
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

/** "o certificado…" → "O certificado…" (a sentence made of parts). */
export function capitalizeFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
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
    format = new Intl.NumberFormat("pt-BR", {
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
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

/**
 * Formatters only some screens use, made on first use: the signing page's bundle imports this
 * module for its dates and should not build formatters it never calls.
 */
function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const dayTimeSeconds = lazy(
  () =>
    new Intl.DateTimeFormat("pt-BR", {
      timeZone: CLINIC_TIME_ZONE,
      day: "2-digit",
      month: "2-digit",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    }),
);
// A calendar month ("2026-06") is a label, not an instant: read at noon UTC on its first day, in UTC.
const monthShort = lazy(() => new Intl.DateTimeFormat("pt-BR", { timeZone: "UTC", month: "short", year: "2-digit" }));
const monthLong = lazy(() => new Intl.DateTimeFormat("pt-BR", { timeZone: "UTC", month: "long", year: "numeric" }));
const relative = lazy(() => new Intl.RelativeTimeFormat("pt-BR", { numeric: "auto" }));
const upToOneDecimal = lazy(() => new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 1 }));

/** An instant → "07/03/2026 14:04:09" in São Paulo (evidence: the PDF's signatures and registry). */
export function formatDateTimeSeconds(value: Instant): string {
  const date = toDate(value);
  return date ? dayTimeSeconds().format(date).replace(",", "") : MISSING;
}

function monthDate(month: string): Date | null {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 12) return null;
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1, 12));
}

/** A calendar month "2026-06" → "jun/26" (charts); anything else comes back as it was. */
export function formatMonthShort(month: string): string {
  const date = monthDate(month);
  if (!date) return month;
  const parts = monthShort().formatToParts(date);
  const name = (parts.find((p) => p.type === "month")?.value ?? "").replace(".", "");
  const year = parts.find((p) => p.type === "year")?.value ?? "";
  return `${name}/${year}`;
}

/** A calendar month "2026-06" → "junho de 2026"; anything else comes back as it was. */
export function formatMonthLong(month: string): string {
  const date = monthDate(month);
  return date ? monthLong().format(date) : month;
}

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "há 5 minutos", "ontem", "há 3 meses"; under a minute → "agora"; missing → "—". */
export function formatRelative(value: Instant, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return MISSING;
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size) return relative().format(Math.trunc(seconds / size), unit);
  }
  return "agora";
}

/**
 * A change in percentage points already in hundreds, signed, one decimal at most:
 * 50 → "+50%", −66.67 → "−66,7%" (a real minus sign), 0.04 → "0%".
 */
export function formatPercentChange(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  const rounded = Math.round(value * 10) / 10;
  const sign = rounded > 0 ? "+" : rounded < 0 ? "−" : "";
  return `${sign}${upToOneDecimal().format(Math.abs(rounded))}%`;
}
