import type { SigningTokenRow } from "./signing-tokens.js";

/**
 * What a link may do now (spec part 1 §4 'Signing link'): 'pending' (open and sign), 'signed'
 * (read-only, with the signatures) or 'invalid' (the one message, never saying why: unknown,
 * replaced, cancelled, expired — a past deadline counts even before the sweep job writes it).
 */
export function signingState(
  token: Pick<SigningTokenRow, "expiresAt" | "revokedAt">,
  document: { status: string; expiracao_at: Date },
  now: Date,
): "pending" | "signed" | "invalid" {
  if (token.revokedAt) return "invalid";
  if (document.status === "signed") return "signed";
  const open = document.status === "sent" || document.status === "viewed";
  if (open && document.expiracao_at.getTime() > now.getTime() && token.expiresAt.getTime() > now.getTime()) return "pending";
  return "invalid";
}
