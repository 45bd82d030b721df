import { CERTIFICATE_EXPIRY_WARNING_DAYS } from "../reference/limits.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The badge of a listed certificate (spec part 1 §4). */
export type CertificateBadgeTone = "inactive" | "expired" | "expiring" | "valid" | "active";

export interface CertificateBadge {
  tone: CertificateBadgeTone;
  label: string;
  /** Whole days left (rounded up) when the certificate expires in 30 days or fewer. */
  daysLeft?: number;
}

/** Days until `expiresAt`, rounded up (10 hours left = 1 day); 0 or less once it has passed. */
export function daysUntil(expiresAt: Date, now: Date): number {
  return Math.ceil((expiresAt.getTime() - now.getTime()) / DAY_MS) || 0;
}

/**
 * Spec part 1 §4: Inativo if not active; Expirado if the expiry has passed; 'Expira em N dias'
 * if 30 days or fewer remain; Válido if later; Ativo if there is no expiry.
 */
export function certificateBadge(
  certificate: { is_active: boolean; vence_em: string | Date | null },
  now: Date = new Date(),
): CertificateBadge {
  if (!certificate.is_active) return { tone: "inactive", label: "Inativo" };
  if (certificate.vence_em === null) return { tone: "active", label: "Ativo" };
  const expiresAt = new Date(certificate.vence_em);
  if (Number.isNaN(expiresAt.getTime())) return { tone: "active", label: "Ativo" };
  if (expiresAt.getTime() <= now.getTime()) return { tone: "expired", label: "Expirado" };
  const days = daysUntil(expiresAt, now);
  if (days <= CERTIFICATE_EXPIRY_WARNING_DAYS[0]) {
    return { tone: "expiring", label: `Expira em ${days} ${days === 1 ? "dia" : "dias"}`, daysLeft: days };
  }
  return { tone: "valid", label: "Válido" };
}

/**
 * The expiry warning due now, if any: the smallest threshold (30, 7, 1 days) already reached and
 * not sent yet. A certificate uploaded with 5 days left gets the 7-day warning only (the 30-day
 * one would say less); `covers` lists every threshold that warning settles.
 */
export function dueExpiryWarning(
  expiresAt: Date,
  alreadySent: readonly number[],
  now: Date,
): { threshold: number; daysLeft: number; covers: number[] } | null {
  const daysLeft = daysUntil(expiresAt, now);
  if (daysLeft <= 0) return null;
  const reached = CERTIFICATE_EXPIRY_WARNING_DAYS.filter((threshold) => daysLeft <= threshold);
  if (reached.length === 0) return null;
  const threshold = Math.min(...reached);
  if (alreadySent.includes(threshold)) return null;
  return { threshold, daysLeft, covers: reached.filter((t) => !alreadySent.includes(t)) };
}
