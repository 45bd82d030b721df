import { randomInt, timingSafeEqual } from "node:crypto";
import { OTP_DIGITS } from "../../../shared/schemas/signing.js";
import { hashToken } from "../../lib/tokens.js";

/** A 6-digit code from the CSPRNG (leading zeros kept). */
export function newSigningCode(): string {
  return randomInt(0, 10 ** OTP_DIGITS).toString().padStart(OTP_DIGITS, "0");
}

/** Only this is stored: the code bound to its document (the same code elsewhere hashes apart). */
export function hashSigningCode(contratoId: string, code: string): string {
  return hashToken(`${contratoId}:${code}`);
}

export function signingCodeMatches(contratoId: string, code: string, storedHash: string): boolean {
  const a = Buffer.from(hashSigningCode(contratoId, code), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The professional's code (decision 042): bound to the document AND the professional, apart from the signers' codes. */
export function hashProfessionalCode(contratoId: string, profileId: string, code: string): string {
  return hashToken(`${contratoId}:profissional:${profileId}:${code}`);
}

export function professionalCodeMatches(contratoId: string, profileId: string, code: string, storedHash: string): boolean {
  const a = Buffer.from(hashProfessionalCode(contratoId, profileId, code), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
