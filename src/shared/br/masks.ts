/**
 * Input masks applied on every keystroke/paste: each receives the raw current
 * input value and returns the masked string. Characters that do not belong are
 * ignored, extra characters are truncated, and no trailing separator is added
 * (so backspace over a separator works naturally).
 */
import { onlyDigits } from "./digits.js";
import { normalizePhone } from "./phone.js";

/** 000.000.000-00 (max 14 chars). Non-digits are ignored. */
export function maskCpf(raw: string): string {
  const d = onlyDigits(raw).slice(0, 11);
  if (d.length <= 3) return d;
  if (d.length <= 6) return `${d.slice(0, 3)}.${d.slice(3)}`;
  if (d.length <= 9) return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`;
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
}

/**
 * 00.000.000/0000-00 (max 18 chars). The first 12 positions accept 0–9 and
 * A–Z (alphanumeric CNPJ, uppercased); the last 2 accept digits only. Other
 * characters are ignored.
 */
export function maskCnpj(raw: string): string {
  let v = "";
  for (const ch of raw.toUpperCase()) {
    if (v.length >= 14) break;
    const ok = v.length < 12 ? /^[0-9A-Z]$/.test(ch) : /^[0-9]$/.test(ch);
    if (ok) v += ch;
  }
  if (v.length <= 2) return v;
  if (v.length <= 5) return `${v.slice(0, 2)}.${v.slice(2)}`;
  if (v.length <= 8) return `${v.slice(0, 2)}.${v.slice(2, 5)}.${v.slice(5)}`;
  if (v.length <= 12) return `${v.slice(0, 2)}.${v.slice(2, 5)}.${v.slice(5, 8)}/${v.slice(8)}`;
  return `${v.slice(0, 2)}.${v.slice(2, 5)}.${v.slice(5, 8)}/${v.slice(8, 12)}-${v.slice(12)}`;
}

/** 00000-000 (max 9 chars). Non-digits are ignored. */
export function maskCep(raw: string): string {
  const d = onlyDigits(raw).slice(0, 8);
  if (d.length <= 5) return d;
  return `${d.slice(0, 5)}-${d.slice(5)}`;
}

/**
 * Brazilian phone, progressive: "(1", "(11", "(11) 9876", "(11) 9876-5432"
 * (10 digits, landline shape) and "(11) 98765-4321" once the 11th digit is
 * typed (max 15 chars). Pasting "+55 11 98765-4321" or "(011) 3456-7890"
 * drops the country code / trunk zero (see `normalizePhone`).
 */
export function maskPhone(raw: string): string {
  const d = normalizePhone(raw).slice(0, 11);
  if (d.length === 0) return "";
  if (d.length <= 2) return `(${d}`;
  const ddd = d.slice(0, 2);
  const rest = d.slice(2);
  if (rest.length <= 4) return `(${ddd}) ${rest}`;
  if (rest.length <= 8) return `(${ddd}) ${rest.slice(0, 4)}-${rest.slice(4)}`;
  return `(${ddd}) ${rest.slice(0, 5)}-${rest.slice(5)}`;
}

/** CNES: up to 7 digits, no punctuation. Non-digits are ignored. */
export function maskCnes(raw: string): string {
  return onlyDigits(raw).slice(0, 7);
}
