import { CircleAlert, CircleCheck, CircleOff } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { FEEGOW_STATUS_LABEL, type FeegowStatus } from "@shared/schemas/feegow";

/** Connection status badge (spec part 2 §2): connected, error, disconnected. */
export function FeegowStatusBadge({ status }: { status: FeegowStatus }) {
  const variant = status === "connected" ? "success" : status === "error" ? "destructive" : "secondary";
  const Icon = status === "connected" ? CircleCheck : status === "error" ? CircleAlert : CircleOff;
  return (
    <Badge variant={variant} data-testid="feegow-status" data-status={status}>
      <Icon aria-hidden /> {FEEGOW_STATUS_LABEL[status]}
    </Badge>
  );
}
