import type { BadgeProps } from "@/components/ui/badge";
import { DOCUMENT_STATUS_LABEL, type DocumentStatus } from "@shared/schemas/document";

const CLINIC_TIME_ZONE = "America/Sao_Paulo";

const dateFormat = new Intl.DateTimeFormat("pt-BR", { timeZone: CLINIC_TIME_ZONE, day: "2-digit", month: "2-digit", year: "numeric" });
const dateTimeFormat = new Intl.DateTimeFormat("pt-BR", {
  timeZone: CLINIC_TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** An instant → its São Paulo date, "dd/mm/aaaa"; missing or malformed → "—". */
export function formatDate(timestamp: string | null | undefined): string {
  if (!timestamp) return "—";
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? "—" : dateFormat.format(date);
}

/** An instant → "dd/mm/aaaa, hh:mm" in São Paulo. */
export function formatDateTime(timestamp: string | null | undefined): string {
  if (!timestamp) return "—";
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? "—" : dateTimeFormat.format(date);
}

/** A calendar date "2026-12-03" → "03/12/2026" (no time-zone shift). */
export function formatCalendarDate(iso: string | null | undefined): string {
  const match = iso ? /^(\d{4})-(\d{2})-(\d{2})/.exec(iso) : null;
  return match ? `${match[3]}/${match[2]}/${match[1]}` : "—";
}

export function statusLabel(status: string): string {
  return DOCUMENT_STATUS_LABEL[status as DocumentStatus] ?? status;
}

export function statusBadgeVariant(status: string): NonNullable<BadgeProps["variant"]> {
  switch (status) {
    case "signed":
      return "success";
    case "sent":
    case "viewed":
      return "warning";
    case "expired":
    case "cancelled":
      return "destructive";
    default:
      return "secondary";
  }
}

/** The expiry date is shown only while the document is not signed (spec part 1 §2). */
export function showsExpiry(status: string): boolean {
  return status !== "signed";
}

/** Expired for the reader: the status says so, or the deadline passed on an unsigned document. */
export function isExpired(status: string, expiracaoAt: string, now: Date = new Date()): boolean {
  if (status === "expired") return true;
  if (status === "signed" || status === "cancelled") return false;
  return new Date(expiracaoAt).getTime() <= now.getTime();
}

/** Which removal a document offers: drafts, cancelled and expired are deleted, sent or viewed ones cancelled; signed ones are kept (src/shared/retention). */
export function removalFor(status: string): "delete" | "cancel" | null {
  if (status === "draft" || status === "cancelled" || status === "expired") return "delete";
  if (status === "sent" || status === "viewed") return "cancel";
  return null;
}
