import { isRepeatedChar } from "./digits.js";

/**
 * CNPJ helpers supporting both the classic numeric CNPJ and the alphanumeric
 * CNPJ (IN RFB nº 2.229/2024, issued from July 2026): the first 12 positions
 * may be 0–9 or A–Z, the last two are numeric check digits. Each character is
 * worth its ASCII code minus 48 ('0'..'9' → 0..9, 'A' → 17 … 'Z' → 42) and the
 * classic modulo-11 weights apply, so numeric CNPJs validate exactly as before.
 */

const DV1_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const DV2_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/** Normalized CNPJ shape: 12 alphanumerics (uppercase) + 2 digits. */
const CNPJ_SHAPE = /^[0-9A-Z]{12}[0-9]{2}$/;

/**
 * Uppercases and strips '.', '/', '-' and whitespace.
 * "12.abc.345/01de-35" → "12ABC34501DE35". Does not validate; any other
 * character is kept (and will make `isValidCnpj` fail).
 */
export function normalizeCnpj(input: string): string {
  return input.toUpperCase().replace(/[./\-\s]/g, "");
}

function cnpjDigit(chars: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < chars.length; i++) {
    sum += (chars.charCodeAt(i) - 48) * (weights[i] ?? 0);
  }
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/**
 * Computes the two check digits for a 12-character CNPJ base
 * (0–9 / A–Z, case-insensitive). Throws if the base is malformed.
 */
export function cnpjCheckDigits(base: string): string {
  const b = base.toUpperCase();
  if (!/^[0-9A-Z]{12}$/.test(b)) {
    throw new Error("cnpjCheckDigits: base must be exactly 12 characters 0-9/A-Z");
  }
  const dv1 = cnpjDigit(b, DV1_WEIGHTS);
  const dv2 = cnpjDigit(b + dv1, DV2_WEIGHTS);
  return `${dv1}${dv2}`;
}

/**
 * Validates a numeric or alphanumeric CNPJ, masked or not, case-insensitive.
 * Rejects sequences whose 12-character base is a single repeated character
 * (00.000.000/0000-00, 11.111.111/1111-11, AA.AAA.AAA/AAAA-…).
 */
export function isValidCnpj(input: string): boolean {
  if (typeof input !== "string") return false;
  const v = normalizeCnpj(input);
  if (!CNPJ_SHAPE.test(v)) return false;
  const base = v.slice(0, 12);
  if (isRepeatedChar(base)) return false;
  return cnpjCheckDigits(base) === v.slice(12);
}

/**
 * Formats as 00.000.000/0000-00 (letters kept, uppercased) when the
 * normalized input has exactly 14 characters 0–9/A–Z; otherwise returns the
 * input unchanged. Does not validate check digits.
 */
export function formatCnpj(input: string): string {
  const v = normalizeCnpj(input);
  if (!/^[0-9A-Z]{14}$/.test(v)) return input;
  return `${v.slice(0, 2)}.${v.slice(2, 5)}.${v.slice(5, 8)}/${v.slice(8, 12)}-${v.slice(12)}`;
}
