/**
 * Dates and numbers of the templates screens, in pt-BR and the clinic's calendar
 * (America/Sao_Paulo). Pure: `now` is injectable for tests.
 */
import { formatNumber } from "@shared/format";

export { CLINIC_TIME_ZONE, formatDate, formatDateTime } from "@shared/format";

const monthFormat = new Intl.DateTimeFormat("pt-BR", { timeZone: "UTC", month: "short", year: "2-digit" });
const monthLongFormat = new Intl.DateTimeFormat("pt-BR", { timeZone: "UTC", month: "long", year: "numeric" });
const relativeFormat = new Intl.RelativeTimeFormat("pt-BR", { numeric: "auto" });

function parse(timestamp: string | null | undefined): Date | null {
  if (!timestamp) return null;
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? null : date;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "há 5 minutos", "ontem", "há 3 meses"; under a minute → "agora". */
export function formatRelative(timestamp: string | null | undefined, now: Date = new Date()): string {
  const date = parse(timestamp);
  if (!date) return "—";
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relativeFormat.format(Math.trunc(seconds / size), unit);
  }
  return "agora";
}

function monthDate(month: string): Date | null {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return null;
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
}

/** "2026-06" → "jun. de 26" style short label, cleaned to "jun/26". */
export function formatMonthShort(month: string): string {
  const date = monthDate(month);
  if (!date) return month;
  const parts = monthFormat.formatToParts(date);
  const name = (parts.find((p) => p.type === "month")?.value ?? "").replace(".", "");
  const year = parts.find((p) => p.type === "year")?.value ?? "";
  return `${name}/${year}`;
}

/** "2026-06" → "junho de 2026". */
export function formatMonthLong(month: string): string {
  const date = monthDate(month);
  return date ? monthLongFormat.format(date) : month;
}

/** "Usado: 1 vez" / "Usado: N vezes" (spec part 2 §9 'Usado: N vezes'). */
export function usageLabel(count: number): string {
  return `Usado: ${formatNumber(count)} ${count === 1 ? "vez" : "vezes"}`;
}

/** 'v' plus the number (spec part 2 §9); no version → "—". */
export function versionLabel(version: number | null): string {
  return version === null ? "—" : `v${version}`;
}
