import { onlyDigits } from "./digits.js";

/**
 * Brazilian area codes (DDD) in use, per ANATEL's numbering plan (67 codes).
 * Not every number in 11–99 is a DDD (e.g. 20, 23, 25, 26, 29, 30, 36, 39, 40,
 * 50, 52, 56–60, 70, 72, 76, 78, 80, 90 are not assigned).
 */
export const BRAZIL_DDDS: ReadonlySet<string> = new Set([
  "11",
  "12",
  "13",
  "14",
  "15",
  "16",
  "17",
  "18",
  "19", // SP
  "21",
  "22",
  "24", // RJ
  "27",
  "28", // ES
  "31",
  "32",
  "33",
  "34",
  "35",
  "37",
  "38", // MG
  "41",
  "42",
  "43",
  "44",
  "45",
  "46", // PR
  "47",
  "48",
  "49", // SC
  "51",
  "53",
  "54",
  "55", // RS
  "61", // DF
  "62",
  "64", // GO
  "63", // TO
  "65",
  "66", // MT
  "67", // MS
  "68", // AC
  "69", // RO
  "71",
  "73",
  "74",
  "75",
  "77", // BA
  "79", // SE
  "81",
  "87", // PE
  "82", // AL
  "83", // PB
  "84", // RN
  "85",
  "88", // CE
  "86",
  "89", // PI
  "91",
  "93",
  "94", // PA
  "92",
  "97", // AM
  "95", // RR
  "96", // AP
  "98",
  "99", // MA
]);

/**
 * Digits only, with DDD first ("(11) 98765-4321" → "11987654321").
 * Also drops an explicit "+55" country code ("+55 11 98765-4321") and leading
 * zeros (long-distance trunk prefix, "(011) 3456-7890"), since a DDD never
 * starts with 0. Does not validate.
 */
export function normalizePhone(input: string): string {
  let d = onlyDigits(input);
  if (/^\s*\+\s*55/.test(input)) d = d.slice(2);
  return d.replace(/^0+/, "");
}

/**
 * Brazilian phone with DDD: 10 digits (landline, number starting with 2–5)
 * or 11 digits (mobile, number starting with 9). The DDD must be an assigned
 * area code (see BRAZIL_DDDS). Accepts masked input and the "+55" / trunk "0"
 * prefixes handled by `normalizePhone`; letters make it invalid.
 */
export function isValidPhone(input: string): boolean {
  if (typeof input !== "string") return false;
  if (/[^0-9\s()+.-]/.test(input)) return false;
  const d = normalizePhone(input);
  if (!BRAZIL_DDDS.has(d.slice(0, 2))) return false;
  if (d.length === 11) return d[2] === "9";
  if (d.length === 10) return /^[2-5]$/.test(d[2] ?? "");
  return false;
}

/**
 * Formats as (00) 0000-0000 (10 digits) or (00) 00000-0000 (11 digits) after
 * `normalizePhone`; any other length returns the input unchanged.
 * Does not validate.
 */
export function formatPhone(input: string): string {
  const d = normalizePhone(input);
  if (d.length === 10) return `(${d.slice(0, 2)}) ${d.slice(2, 6)}-${d.slice(6)}`;
  if (d.length === 11) return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`;
  return input;
}

/** A valid Brazilian mobile number (11 digits, 9 after the DDD): one an SMS can reach. */
export function isMobilePhone(input: string | null | undefined): boolean {
  return typeof input === "string" && isValidPhone(input) && normalizePhone(input).length === 11;
}

/** "(**) *****-4321": a phone shown before the signer proves who they are. */
export function maskPhone4(input: string): string {
  return `(**) *****-${normalizePhone(input).slice(-4)}`;
}
