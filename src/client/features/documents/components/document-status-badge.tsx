import { Badge } from "@/components/ui/badge";
import { statusBadgeVariant, statusLabel } from "../lib/format";

export function DocumentStatusBadge({ status }: { status: string }) {
  return (
    <Badge variant={statusBadgeVariant(status)} data-testid="document-status">
      {statusLabel(status)}
    </Badge>
  );
}
