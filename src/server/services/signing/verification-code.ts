import { randomInt } from "node:crypto";

/** Crockford base32: no I, L, O, U (nothing to misread when typed from paper). */
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const VERIFICATION_CODE_LENGTH = 10;

/** A public verification code for /verificar/:code: 10 crypto-random Crockford characters (50 bits). */
export function newVerificationCode(): string {
  let code = "";
  for (let i = 0; i < VERIFICATION_CODE_LENGTH; i++) code += CROCKFORD[randomInt(CROCKFORD.length)];
  return code;
}
