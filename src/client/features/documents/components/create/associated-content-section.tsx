import { AssociationChecklist } from "@/features/procedures";
import { DOCUMENT_MESSAGES } from "@shared/schemas/document";
import type { ContentCounts, ContentKind } from "./form-values";

/** The procedure's risks, benefits and aftercare, as checklists with their counters. */
export function AssociatedContentSection({
  chosen,
  counts,
  onToggle,
  disabled,
  invalid,
}: {
  chosen: Record<ContentKind, string[]>;
  counts: ContentCounts;
  onToggle: (kind: ContentKind, id: string, checked: boolean) => void;
  disabled: boolean;
  invalid: boolean;
}) {
  return (
    <section className="grid gap-4" aria-label="Conteúdo associado">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-base font-semibold">Conteúdo associado</h2>
        <p className="text-sm text-muted-foreground" data-testid="selected-counters">
          {counts.riscos} {counts.riscos === 1 ? "risco" : "riscos"} · {counts.beneficios}{" "}
          {counts.beneficios === 1 ? "benefício" : "benefícios"} · {counts.cuidados}{" "}
          {counts.cuidados === 1 ? "cuidado" : "cuidados"}
        </p>
      </div>
      <div className="grid gap-4">
        {(["riscos", "beneficios", "cuidados"] as const).map((kind) => (
          <AssociationChecklist
            key={kind}
            kind={kind}
            selected={new Set(chosen[kind])}
            onToggle={(id, checked) => onToggle(kind, id, checked)}
            disabled={disabled}
          />
        ))}
      </div>
      {invalid ? <p className="text-sm text-destructive">{DOCUMENT_MESSAGES.requiredFields}</p> : null}
    </section>
  );
}
