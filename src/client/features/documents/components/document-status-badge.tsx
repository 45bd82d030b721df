import { Badge } from "@/components/ui/badge";
import { documentStatusLabel } from "@shared/schemas/document";
import { formatDateTime, statusBadgeVariant } from "../lib/format";

/**
 * The document's status; a revoked consent (still `signed`, decision 056) reads "Revogado", with
 * its time in the tooltip, never plain "Assinado".
 */
export function DocumentStatusBadge({ status, revogadoAt }: { status: string; revogadoAt?: string | null }) {
  return (
    <Badge
      variant={statusBadgeVariant(status, revogadoAt)}
      data-testid="document-status"
      data-revoked={revogadoAt ? true : undefined}
      title={revogadoAt ? `Revogado em ${formatDateTime(revogadoAt)}` : undefined}
    >
      {documentStatusLabel(status, revogadoAt)}
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
