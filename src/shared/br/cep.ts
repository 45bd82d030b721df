import { onlyDigits } from "./digits.js";

/** Digits only, e.g. "01310-100" → "01310100". Does not validate. */
export function normalizeCep(input: string): string {
  return onlyDigits(input);
}

/**
 * Exactly 8 digits, masked ("01310-100") or not ("01310100"). Only mask
 * punctuation ('-', '.', whitespace) is tolerated; letters etc. make it
 * invalid. "00000-000" (not an existing CEP) is rejected.
 */
export function isValidCep(input: string): boolean {
  if (typeof input !== "string") return false;
  const d = input.replace(/[.\-\s]/g, "");
  return /^[0-9]{8}$/.test(d) && d !== "00000000";
}

/** Formats as 00000-000 when the input holds exactly 8 digits; otherwise returns it unchanged. */
export function formatCep(input: string): string {
  const d = normalizeCep(input);
  if (d.length !== 8) return input;
  return `${d.slice(0, 5)}-${d.slice(5)}`;
}
