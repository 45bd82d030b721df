import { AlertTriangle, CheckCircle2, Clock, Eye, FileText, FileX2, Undo2 } from "lucide-react";
import { StatCard } from "@/components/ui/stat-card";
import type { DocumentCounters as Counters } from "@shared/schemas/document";
import { formatNumber } from "@shared/format";

/**
 * The counters of /documents (spec part 1 §2, and the refused and revoked ones of decision 056): a grid on desktop, one horizontal scrolling
 * row under 768 px. The row is `relative` so that it is the containing block of what it scrolls:
 * the loading cards' screen-reader text is absolutely positioned (sr-only), and without it those
 * spans escaped the row's clipping and made the whole page 700+ px wide on a phone until the
 * counters arrived.
 */
export function DocumentCounters({ counters, loading }: { counters: Counters | undefined; loading: boolean }) {
  const value = (n: number | undefined) => (n === undefined ? "—" : formatNumber(n));
  const cards = [
    { title: "Total", value: counters?.total, icon: <FileText /> },
    { title: "Assinados", value: counters?.assinados, icon: <CheckCircle2 /> },
    { title: "Pendentes", value: counters?.pendentes, icon: <Clock /> },
    { title: "Visualizados", value: counters?.visualizados, icon: <Eye /> },
    { title: "Expirados", value: counters?.expirados, icon: <AlertTriangle /> },
    { title: "Recusados", value: counters?.recusados, icon: <FileX2 /> },
    { title: "Revogados", value: counters?.revogados, icon: <Undo2 /> },
  ];
  return (
    <section
      aria-label="Resumo dos documentos"
      // A strip that scrolls sideways on phones: reachable by keyboard (arrow keys scroll it).
      tabIndex={0}
      className="relative -mx-4 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 flex snap-x scroll-px-4 gap-3 overflow-x-auto px-4 pb-1 md:mx-0 md:grid md:grid-cols-4 md:gap-4 xl:grid-cols-7 md:overflow-visible md:px-0 md:pb-0"
      data-testid="document-counters"
    >
      {cards.map((card) => (
        <StatCard
          key={card.title}
          title={card.title}
          value={value(card.value)}
          icon={card.icon}
          loading={loading}
          className="min-w-36 shrink-0 snap-start md:min-w-0"
          data-testid={`counter-${card.title.toLowerCase()}`}
        />
      ))}
    </section>
  );
}
