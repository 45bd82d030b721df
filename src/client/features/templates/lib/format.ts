/**
 * Dates and numbers of the templates screens, in pt-BR and the clinic's calendar
 * (America/Sao_Paulo). Pure: `now` is injectable for tests.
 */
import { formatNumber } from "@shared/format";

export {
  CLINIC_TIME_ZONE,
  formatDate,
  formatDateTime,
  formatMonthLong,
  formatMonthShort,
  formatRelative,
} from "@shared/format";

/** "Usado: 1 vez" / "Usado: N vezes" (spec part 2 §9 'Usado: N vezes'). */
export function usageLabel(count: number): string {
  return `Usado: ${formatNumber(count)} ${count === 1 ? "vez" : "vezes"}`;
}

/** 'v' plus the number (spec part 2 §9); no version → "—". */
export function versionLabel(version: number | null): string {
  return version === null ? "—" : `v${version}`;
}
