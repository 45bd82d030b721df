import { text } from "./safe-input.js";
import { isCommonPassword } from "../reference/common-passwords.js";
import { PASSWORD_MIN_LENGTH } from "./common.js";

export { PASSWORD_MIN_LENGTH };

export const PASSWORD_MESSAGES = {
  tooShort: `A senha deve ter pelo menos ${PASSWORD_MIN_LENGTH} caracteres`,
  tooCommon: "Esta senha é muito comum e fácil de adivinhar. Escolha outra.",
} as const;

/**
 * A new password (sign-up, reset), for the client forms and the routes alike (decision 011):
 * at least PASSWORD_MIN_LENGTH characters and not on the common-password list. Sign-in does not
 * use it: accounts made under the spec's 6-character rule still sign in (signInSchema).
 * Kept apart from common.ts so the list (~70 kB) ships only with the pages that use it.
 */
export const passwordField = text({ error: "Informe a senha" })
  .min(1, "Informe a senha")
  .min(PASSWORD_MIN_LENGTH, PASSWORD_MESSAGES.tooShort)
  .max(200, "A senha é longa demais")
  .refine((value) => !isCommonPassword(value), PASSWORD_MESSAGES.tooCommon);
