import { CERTIFICATE_EXPIRY_WARNING_DAYS } from "../reference/limits.js";

/**
 * What 'Avisos' (/notifications) tells (decision 028). All but `system` are derived from
 * the data where the fact already lives (documents, the e-mail outbox, Feegow uploads,
 * certificates); `system` is stored (system_notices) for facts with no other home.
 */
export const NOTICE_KINDS = [
  "document.viewed",
  "document.expiring",
  "document.signed",
  /** The patient refused, or revoked a signed consent (decision 056): the clinic and the responsible professional. */
  "document.refused",
  "document.revoked",
  /** The patient asked to talk to the professional before signing (decision 061): like a refusal's audience. */
  "document.paused",
  /** One per responsible professional: the documents waiting for their signature (decision 050). */
  "professional.awaiting",
  "email.failed",
  "feegow.failed",
  "certificate.expiring",
  "certificate.expired",
  "system",
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** A sent or viewed document is "about to expire" this many hours before its expiry. */
export const DOCUMENT_EXPIRY_NOTICE_HOURS = 48;
/** Certificates are announced this many days before they expire (the first e-mail warning too). */
export const CERTIFICATE_NOTICE_DAYS: number = CERTIFICATE_EXPIRY_WARNING_DAYS[0];
/** "Assinado desde a sua última visita": with no earlier visit, the signatures of these last days. */
export const SIGNED_FIRST_VISIT_DAYS = 7;
/** …and never more than these days back, however long ago the last visit was. */
export const SIGNED_MAX_DAYS = 30;
/** Failed e-mails and system notices are shown for this many days. */
export const RECENT_NOTICE_DAYS = 30;
/** Fetches of Avisos closer than this belong to one visit. */
export const VISIT_GAP_MINUTES = 30;
/** The unread count stops counting here (the badge then says "99+"). */
export const UNREAD_COUNT_CAP = 100;
/** Keys marked read in one request. */
export const MAX_READ_KEYS = 100;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A notice's key: its kind, the row it is about, and the instant of the state it tells (epoch
 * microseconds) — so a new failure of the same upload, or a document that moved on, is a new,
 * unread notice.
 */
export function noticeKey(kind: NoticeKind, id: string, atMicros: string | number | bigint): string {
  return `${kind}:${id.toLowerCase()}:${String(atMicros)}`;
}

export const NOTICE_KEY_PATTERN = new RegExp(
  `^(${NOTICE_KINDS.map((kind) => kind.replace(".", "\\.")).join("|")}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(\\d{1,19})$`,
);

export interface ParsedNoticeKey {
  kind: NoticeKind;
  id: string;
  atMicros: string;
}

/** The parts of a key as noticeKey writes it, or null. */
export function parseNoticeKey(key: string): ParsedNoticeKey | null {
  const match = NOTICE_KEY_PATTERN.exec(key);
  if (!match) return null;
  return { kind: match[1] as NoticeKind, id: match[2] as string, atMicros: match[3] as string };
}

/** The user's visits to Avisos: the current one, and the end of the one before. */
export interface NoticeVisits {
  visitAt: Date | null;
  previousVisitAt: Date | null;
}

/**
 * A fetch of Avisos at `now`: within VISIT_GAP_MINUTES of the last it continues the visit;
 * otherwise the last visit is over and becomes "a sua última visita".
 */
export function nextVisit(visits: NoticeVisits, now: Date): NoticeVisits {
  if (visits.visitAt && now.getTime() - visits.visitAt.getTime() <= VISIT_GAP_MINUTES * 60_000) {
    return { visitAt: now > visits.visitAt ? now : visits.visitAt, previousVisitAt: visits.previousVisitAt };
  }
  return { visitAt: now, previousVisitAt: visits.visitAt };
}

/** Documents signed after this instant are "assinado desde a sua última visita". */
export function signedNoticesSince(visits: Pick<NoticeVisits, "previousVisitAt">, now: Date): Date {
  const floor = new Date(now.getTime() - SIGNED_MAX_DAYS * DAY_MS);
  const since = visits.previousVisitAt ?? new Date(now.getTime() - SIGNED_FIRST_VISIT_DAYS * DAY_MS);
  return since > floor ? since : floor;
}

/** Notices per page of Avisos. */
export const NOTICE_PAGE_SIZE = 20;
