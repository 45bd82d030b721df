import type { BadgeProps } from "@/components/ui/badge";
import { documentStatusLabel } from "@shared/schemas/document";

export { formatCalendarDate, formatDate, formatDateTime } from "@shared/format";

/** "Revogado" once revoked (decision 056), else the status's label. */
export function statusLabel(status: string, revogadoAt?: string | null): string {
  return documentStatusLabel(status, revogadoAt);
}

export function statusBadgeVariant(status: string, revogadoAt?: string | null): NonNullable<BadgeProps["variant"]> {
  if (revogadoAt) return "destructive";
  switch (status) {
    case "signed":
      return "success";
    case "sent":
    case "viewed":
      return "warning";
    case "expired":
    case "cancelled":
    case "recusado":
      return "destructive";
    default:
      return "secondary";
  }
}

/** The expiry date is shown only while the document is not signed (spec part 1 §2). */
export function showsExpiry(status: string): boolean {
  return status !== "signed" && status !== "recusado";
}

/** Expired for the reader: the status says so, or the deadline passed on an unsigned document. */
export function isExpired(status: string, expiracaoAt: string, now: Date = new Date()): boolean {
  if (status === "expired") return true;
  if (status === "signed" || status === "cancelled" || status === "recusado") return false;
  return new Date(expiracaoAt).getTime() <= now.getTime();
}

/**
 * Which removal a document offers: drafts and cancelled ones are deleted; sent, viewed and expired
 * ones cancelled with a reason ("Reenvie ou cancele", the expired warning card) — then deleted if
 * need be; signed ones are kept (src/shared/retention).
 */
export function removalFor(status: string): "delete" | "cancel" | null {
  if (status === "draft" || status === "cancelled") return "delete";
  if (status === "sent" || status === "viewed" || status === "expired") return "cancel";
  return null;
}
