import { isRepeatedChar, onlyDigits } from "./digits.js";

/** Characters accepted as CPF mask punctuation by `isValidCpf`. */
const CPF_MASK_CHARS = /[.\-\s]/g;

/** Digits only, e.g. "529.982.247-25" → "52998224725". Does not validate. */
export function normalizeCpf(input: string): string {
  return onlyDigits(input);
}

/**
 * Computes the two CPF check digits for a 9-digit base.
 * Throws if `base` is not exactly 9 ASCII digits.
 */
export function cpfCheckDigits(base: string): string {
  if (!/^[0-9]{9}$/.test(base)) {
    throw new Error("cpfCheckDigits: base must be exactly 9 digits");
  }
  const dv1 = cpfDigit(base);
  const dv2 = cpfDigit(base + dv1);
  return `${dv1}${dv2}`;
}

/** Check digit for `digits` (9 or 10 digits), weights n+1 … 2. */
function cpfDigit(digits: string): number {
  let sum = 0;
  const firstWeight = digits.length + 1;
  for (let i = 0; i < digits.length; i++) {
    sum += Number(digits[i]) * (firstWeight - i);
  }
  const rest = (sum * 10) % 11;
  return rest === 10 ? 0 : rest;
}

/**
 * Validates a CPF, masked ("529.982.247-25") or not ("52998224725").
 * Only mask punctuation ('.', '-', whitespace) is tolerated; any other
 * character (letters, '/', …) makes it invalid. Requires exactly 11 digits,
 * correct check digits, and rejects repeated-digit sequences (111.111.111-11).
 */
export function isValidCpf(input: string): boolean {
  if (typeof input !== "string") return false;
  const digits = input.replace(CPF_MASK_CHARS, "");
  if (!/^[0-9]{11}$/.test(digits)) return false;
  if (isRepeatedChar(digits)) return false;
  return cpfCheckDigits(digits.slice(0, 9)) === digits.slice(9);
}

/**
 * Formats as 000.000.000-00 when the input holds exactly 11 digits;
 * otherwise returns the input unchanged. Does not validate check digits.
 */
export function formatCpf(input: string): string {
  const d = normalizeCpf(input);
  if (d.length !== 11) return input;
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
}
