import { Badge } from "@/components/ui/badge";
import { templateStatusLabel } from "@shared/schemas/template";

/** Publicado (green), Em Revisão (amber), Rascunho (grey); an unknown status shows as draft. */
export function TemplateStatusBadge({ status, className }: { status: string; className?: string }) {
  const variant = status === "published" ? "success" : status === "review" ? "warning" : "secondary";
  return (
    <Badge variant={variant} className={className} data-testid="template-status">
      {templateStatusLabel(status)}
    </Badge>
  );
}
