import { Badge } from "@/components/ui/badge";
import { statusBadgeVariant, statusLabel } from "../lib/format";

export function DocumentStatusBadge({ status }: { status: string }) {
  return (
    <Badge variant={statusBadgeVariant(status)} data-testid="document-status">
      {statusLabel(status)}
    </Badge>
  );
}

/** "Aguardando profissional": sent or viewed, the responsible professional has not signed (decision 050). */
export function AwaitingProfessionalBadge({ doc }: { doc: { aguardando_profissional: boolean } }) {
  if (!doc.aguardando_profissional) return null;
  return (
    <Badge variant="outline" data-testid="awaiting-professional">
      Aguardando profissional
    </Badge>
  );
}
