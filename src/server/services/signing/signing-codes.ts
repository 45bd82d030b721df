import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { OTP_DIGITS, OTP_MAX_ATTEMPTS } from "../../../shared/schemas/signing.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { hashToken } from "../../lib/tokens.js";

/**
 * A 6-digit code has a million values: kept as a plain hash, a reader of the database finds it by
 * trying them all in a blink. So a code is kept as an HMAC under a key of its own, derived from
 * the instance key (never in the database): without that key its hash says nothing (decision 043).
 */
export const SIGNING_CODE_KEY_PURPOSE = "signing-code-v1";
/** Marks a keyed hash; a stored hash without it is from before (plain SHA-256, 10 minutes at most). */
const KEYED = "h1:";

export const signingCodeKey = (box: SecretBox): Buffer => box.deriveKey(SIGNING_CODE_KEY_PURPOSE);

/** A 6-digit code from the CSPRNG (leading zeros kept). */
export function newSigningCode(): string {
  return randomInt(0, 10 ** OTP_DIGITS)
    .toString()
    .padStart(OTP_DIGITS, "0");
}

const keyed = (key: Buffer, subject: string) => KEYED + createHmac("sha256", key).update(subject).digest("hex");

function matches(key: Buffer, subject: string, stored: string): boolean {
  const expected = stored.startsWith(KEYED) ? keyed(key, subject) : hashToken(subject);
  const a = Buffer.from(expected);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * What a typed code is worth against the newest unconsumed stored one (patient's, witness's or the
 * professional's): `dead` — none, expired or used up (OTP_MAX_ATTEMPTS): a new one must be asked
 * for; `wrong` — the caller counts the attempt; `right`.
 */
export function codeVerdict(
  stored: { expires_at: Date; attempts: number; code_hash: string } | undefined,
  now: Date,
  matches: (storedHash: string) => boolean,
): "dead" | "wrong" | "right" {
  if (!stored || stored.expires_at.getTime() <= now.getTime() || stored.attempts >= OTP_MAX_ATTEMPTS) return "dead";
  return matches(stored.code_hash) ? "right" : "wrong";
}

/** Only this is stored: the code bound to its document (the same code elsewhere hashes apart). */
export function hashSigningCode(key: Buffer, contratoId: string, code: string): string {
  return keyed(key, `${contratoId}:${code}`);
}

export function signingCodeMatches(key: Buffer, contratoId: string, code: string, storedHash: string): boolean {
  return matches(key, `${contratoId}:${code}`, storedHash);
}

/** The professional's code (decision 042): bound to the document AND the professional, apart from the signers' codes. */
export function hashProfessionalCode(key: Buffer, contratoId: string, profileId: string, code: string): string {
  return keyed(key, `${contratoId}:profissional:${profileId}:${code}`);
}

export interface ProfessionalCodeMatchesOptions {
  key: Buffer;
  contratoId: string;
  profileId: string;
  code: string;
  storedHash: string;
}

export function professionalCodeMatches({
  key,
  contratoId,
  profileId,
  code,
  storedHash,
}: ProfessionalCodeMatchesOptions): boolean {
  return matches(key, `${contratoId}:profissional:${profileId}:${code}`, storedHash);
}
