const PERCENT = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 1 });

/**
 * Month-over-month change of a count, as the dashboard writes it ("+50% em relação ao mês
 * passado"), or null when last month had none (no baseline: no trend line rather than a made-up
 * one).
 */
export function monthOverMonth(current: number, previous: number): { text: string; direction: "up" | "down" | "flat" } | null {
  if (previous <= 0) return null;
  const change = ((current - previous) / previous) * 100;
  const rounded = Math.round(change * 10) / 10;
  const direction = rounded > 0 ? "up" : rounded < 0 ? "down" : "flat";
  const sign = rounded > 0 ? "+" : rounded < 0 ? "−" : "";
  return { text: `${sign}${PERCENT.format(Math.abs(rounded))}% em relação ao mês passado`, direction };
}
