import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { ContentCounts } from "./form-values";

/** How many risks, benefits and aftercare items are chosen. */
export function SelectedCountersCard({ counts }: { counts: ContentCounts }) {
  return (
    <Card className="gap-2 py-4" aria-label="Itens selecionados">
      <CardHeader className="px-4">
        <CardTitle className="text-sm">Itens selecionados</CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-3 gap-2 px-4 text-center">
        {(
          [
            ["Riscos", counts.riscos],
            ["Benefícios", counts.beneficios],
            ["Cuidados", counts.cuidados],
          ] as const
        ).map(([label, count]) => (
          <div key={label} className="rounded-md bg-muted/60 px-2 py-2">
            <p className="text-lg font-semibold tabular-nums">{count}</p>
            <p className="text-xs text-muted-foreground">{label}</p>
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
