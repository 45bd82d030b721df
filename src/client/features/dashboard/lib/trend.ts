import { formatPercentChange } from "@shared/format";

/**
 * Month-over-month change of a count, as the dashboard writes it ("+50% em relação ao mês
 * passado"), or null when last month had none (no baseline: no trend line rather than a made-up
 * one).
 */
export function monthOverMonth(
  current: number,
  previous: number,
): { text: string; direction: "up" | "down" | "flat" } | null {
  if (previous <= 0) return null;
  const change = ((current - previous) / previous) * 100;
  const rounded = Math.round(change * 10) / 10;
  const direction = rounded > 0 ? "up" : rounded < 0 ? "down" : "flat";
  return { text: `${formatPercentChange(change)} em relação ao mês passado`, direction };
}
