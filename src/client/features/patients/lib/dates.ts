/**
 * Dates of the patients feature, always read in the clinic's civil calendar
 * (America/Sao_Paulo) and shown in pt-BR. Pure functions: `now` is injectable for tests.
 */

import { CLINIC_TIME_ZONE, formatCalendarDate, formatDate } from "@shared/format";

export { CLINIC_TIME_ZONE };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const isoDayFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: CLINIC_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** Today's date in São Paulo as YYYY-MM-DD (what <input type="date"> reads and writes). */
export function todayInSaoPaulo(now: Date = new Date()): string {
  return isoDayFormat.format(now);
}

/**
 * Whole years lived on `now`'s São Paulo date, or null when `birthDate` is missing, malformed
 * or in the future. Someone born on 29 February turns a year older on 1 March in common years.
 */
export function ageFromBirthDate(birthDate: string | null | undefined, now: Date = new Date()): number | null {
  if (!birthDate) return null;
  const birth = ISO_DATE.exec(birthDate);
  const today = ISO_DATE.exec(todayInSaoPaulo(now));
  if (!birth || !today) return null;
  const [, by, bm, bd] = birth.map(Number) as [number, number, number, number];
  const [, ty, tm, td] = today.map(Number) as [number, number, number, number];
  if (bm < 1 || bm > 12 || bd < 1 || bd > 31) return null;
  let age = ty - by;
  if (tm < bm || (tm === bm && td < bd)) age -= 1;
  return age >= 0 ? age : null;
}

/** Under 18 on `now`'s São Paulo date. Unknown birth date → false. */
export function isMinor(birthDate: string | null | undefined, now: Date = new Date()): boolean {
  const age = ageFromBirthDate(birthDate, now);
  return age !== null && age < 18;
}

/** "34 anos", "1 ano", "Menos de 1 ano"; null → "—". */
export function formatAge(age: number | null): string {
  if (age === null) return "—";
  if (age === 0) return "Menos de 1 ano";
  return age === 1 ? "1 ano" : `${age} anos`;
}

/** A calendar date "1990-03-15" → "15/03/1990" (no time-zone shift); anything else → "—". */
export function formatDateBR(isoDate: string | null | undefined): string {
  return formatCalendarDate(isoDate);
}

/** An instant (timestamp) → its São Paulo date in pt-BR, e.g. "2025-03-01T02:00:00Z" → "28/02/2025". */
export function formatInstantDateBR(timestamp: string | null | undefined): string {
  return formatDate(timestamp);
}
