/** Clinics' calendar: dates and "this month" are taken in America/Sao_Paulo. */
export const CLINIC_TIME_ZONE = "America/Sao_Paulo";

const partsFormatter = new Intl.DateTimeFormat("en-CA", {
  timeZone: CLINIC_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

function zonedParts(instant: Date): Record<"year" | "month" | "day" | "hour" | "minute" | "second", number> {
  const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of partsFormatter.formatToParts(instant)) {
    if (part.type in out) out[part.type as keyof typeof out] = Number(part.value);
  }
  return out;
}

/** The calendar date (YYYY-MM-DD) in São Paulo at `instant`. */
export function dateInSaoPaulo(instant: Date): string {
  const p = zonedParts(instant);
  return `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
}

/** The UTC instant at which the São Paulo wall-clock reads `date` 00:00:00. */
export function startOfDayInSaoPaulo(date: string): Date {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const guess = Date.UTC(year, month - 1, day);
  // Offset of São Paulo from UTC at that moment (handles historical DST too).
  const p = zonedParts(new Date(guess));
  const asIfUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  const offset = asIfUtc - guess;
  return new Date(guess - offset);
}

/** First instant of the current month in São Paulo ('Novos este Mês' counts from here). */
export function startOfMonthInSaoPaulo(now: Date): Date {
  const today = dateInSaoPaulo(now);
  return startOfDayInSaoPaulo(`${today.slice(0, 7)}-01`);
}

/** The calendar month (YYYY-MM) in São Paulo at `instant`: the documents counters' month buckets. */
export function monthInSaoPaulo(instant: Date): string {
  return dateInSaoPaulo(instant).slice(0, 7);
}

/** Age in whole years on `today` (both YYYY-MM-DD); null when unknown or in the future. */
export function ageOn(birthDate: string | null | undefined, today: string): number | null {
  if (!birthDate || !/^\d{4}-\d{2}-\d{2}$/.test(birthDate) || birthDate > today) return null;
  const [by, bm, bd] = birthDate.split("-").map(Number) as [number, number, number];
  const [ty, tm, td] = today.split("-").map(Number) as [number, number, number];
  let age = ty - by;
  if (tm < bm || (tm === bm && td < bd)) age -= 1;
  return age;
}
