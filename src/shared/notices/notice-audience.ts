import { can, type PermissionSubject } from "../permissions.js";
import type { NoticeKind } from "./notice-kinds.js";

/** Who is looking at Avisos: taken from the session. */
export interface NoticeViewer extends PermissionSubject {
  profileId: string;
}

/** Which documents or certificates a viewer hears about. */
export type NoticeScope = "all" | "own" | "none";

/** What each kind of notice reaches for one viewer (decision 028). */
export interface NoticeAudience {
  /** Viewed-not-signed, about to expire, signed: "own" = documents they are responsible for. */
  documents: NoticeScope;
  /** Feegow uploads that failed: who manages the integration. */
  feegowFailures: boolean;
  /** Certificates expiring or expired: "own" = their own e-CPF. */
  certificates: NoticeScope;
  /** E-mails not delivered and system notices (e.g. a failed backup): owner and administration. */
  operations: boolean;
}

/** Care roles whose documents are their own patients': they hear of the ones they answer for. */
const CARE_ROLES = new Set(["profissional", "pro_saude"]);

/**
 * The audience rules, on the one permission table (src/shared/permissions.ts):
 * - documents: whoever may read documents; a health professional (not the owner) only those
 *   where they are the responsible professional;
 * - Feegow failures: who manages the integration (integration.manage);
 * - certificates: who manages the clinic's (all of them), else who manages their own (theirs);
 * - operations (failed e-mails, system notices): notices.operations (owner, administration).
 */
export function noticeAudience(viewer: PermissionSubject): NoticeAudience {
  const documents: NoticeScope = !can(viewer, "documents.read")
    ? "none"
    : !viewer.isOwner && CARE_ROLES.has(viewer.role)
      ? "own"
      : "all";
  const certificates: NoticeScope = can(viewer, "certificates.manageClinic")
    ? "all"
    : can(viewer, "certificates.manageOwn")
      ? "own"
      : "none";
  return {
    documents,
    feegowFailures: can(viewer, "integration.manage"),
    certificates,
    operations: can(viewer, "notices.operations"),
  };
}

/** The facts a single notice carries that decide who sees it. */
export interface NoticeSubject {
  kind: NoticeKind;
  /** Documents: the responsible professional. */
  responsibleId?: string | null;
  /** Certificates: the professional who owns it; null = the clinic's own. */
  certificateOwnerId?: string | null;
}

function inScope(scope: NoticeScope, viewerId: string, ownerId: string | null | undefined): boolean {
  return scope === "all" || (scope === "own" && !!ownerId && ownerId === viewerId);
}

/** The same rules for one notice (the server builds its queries from noticeAudience). */
export function seesNotice(viewer: NoticeViewer, notice: NoticeSubject): boolean {
  const audience = noticeAudience(viewer);
  switch (notice.kind) {
    case "document.viewed":
    case "document.expiring":
    case "document.signed":
      return inScope(audience.documents, viewer.profileId, notice.responsibleId);
    case "document.refused":
    case "document.revoked":
    case "document.paused":
      // The documents audience, and always the responsible professional (decision 056).
      return audience.documents === "all" || (!!notice.responsibleId && notice.responsibleId === viewer.profileId);
    case "professional.awaiting":
      // Only the responsible professional, whatever their role (decision 050).
      return !!notice.responsibleId && notice.responsibleId === viewer.profileId;
    case "feegow.failed":
      return audience.feegowFailures;
    case "certificate.expiring":
    case "certificate.expired":
      return inScope(audience.certificates, viewer.profileId, notice.certificateOwnerId);
    case "email.failed":
    case "system":
      return audience.operations;
  }
}
