import { SIGNED_LINK_DAYS } from "../../../shared/signing-rules.js";
import type { SigningTokenRow } from "./signing-tokens.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What a link may do now (spec part 1 §4 'Signing link'): 'pending' (open and sign), 'signed'
 * (read-only, with the signatures) or 'invalid' (the one message, never saying why: unknown,
 * replaced, cancelled, expired — a past deadline counts even before the sweep job writes it).
 * `ownSigned`: this link's signer has signed while other parties (witnesses, the patient) have
 * not yet — the link is read-only for them until the document completes or expires (decision 021).
 * A signed document's links stay open (read-only, with the sealed PDF) for SIGNED_LINK_DAYS after
 * the signature that completed it, then are dead like any other (decision 021).
 */
export function signingState(
  token: Pick<SigningTokenRow, "expiresAt" | "revokedAt">,
  document: { status: string; expiracao_at: Date; signed_at?: Date | null },
  now: Date,
  ownSigned = false,
): "pending" | "signed" | "invalid" {
  if (token.revokedAt) return "invalid";
  if (document.status === "signed") {
    const signedAt = document.signed_at?.getTime() ?? now.getTime();
    return now.getTime() < signedAt + SIGNED_LINK_DAYS * DAY_MS ? "signed" : "invalid";
  }
  const open = document.status === "sent" || document.status === "viewed";
  if (open && document.expiracao_at.getTime() > now.getTime() && token.expiresAt.getTime() > now.getTime())
    return ownSigned ? "signed" : "pending";
  return "invalid";
}
