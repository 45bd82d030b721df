import { formatNumber } from "@shared/format";
import { formatMonthLong, formatMonthShort } from "../lib/format";

/**
 * 'Uso por Mês (Últimos 6 meses)': vertical bars with heights proportional to the counts.
 * The figure is one image for assistive technology, with the numbers in its label; the same
 * numbers are printed above each bar.
 */
export function UsageChart({ months }: { months: { mes: string; total: number }[] }) {
  const max = Math.max(1, ...months.map((m) => m.total));
  const summary = months.map((m) => `${formatMonthLong(m.mes)}: ${m.total}`).join("; ");
  return (
    <div role="img" aria-label={`Documentos por mês. ${summary}`} className="grid gap-2" data-testid="usage-chart">
      <div className="flex h-44 items-end gap-2 border-b sm:gap-4" aria-hidden="true">
        {months.map((month) => {
          const height = month.total === 0 ? 0 : Math.max(4, Math.round((month.total / max) * 100));
          return (
            <div key={month.mes} className="flex h-full min-w-0 flex-1 flex-col items-center justify-end gap-1">
              <span className="text-xs font-medium tabular-nums">{formatNumber(month.total)}</span>
              <div
                className="w-full max-w-12 rounded-t-md bg-primary transition-[height]"
                style={{ height: `${height}%` }}
                data-testid="usage-bar"
                data-value={month.total}
              />
            </div>
          );
        })}
      </div>
      <div className="flex gap-2 sm:gap-4" aria-hidden="true">
        {months.map((month) => (
          <span key={month.mes} className="min-w-0 flex-1 text-center text-xs text-muted-foreground">
            {formatMonthShort(month.mes)}
          </span>
        ))}
      </div>
    </div>
  );
}
