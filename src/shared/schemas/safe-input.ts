import { z } from "zod";
import "./zod-locale.js";

/**
 * The shared input layer: every text and date that enters the server passes here, so
 * bad input answers 400 with a pt-BR message instead of reaching PostgreSQL (which refuses NUL
 * bytes, and dates like 2024-02-30 that JavaScript silently rolls over) or the PDF renderer.
 */

export const UNSAFE_TEXT_MESSAGE = "O texto contém caracteres inválidos (caractere nulo ou de codificação incompleta)";

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
// eslint-disable-next-line no-control-regex -- finding the NUL is this pattern's job
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the text can be stored and printed as it is: no NUL byte and no lone surrogate. */
export function isSafeText(value: string): boolean {
  return !UNSAFE_TEXT.test(value);
}

/** z.string() that refuses NUL bytes and lone surrogates; chain .trim(), .min(), … as usual. */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isSafeText, { error: UNSAFE_TEXT_MESSAGE, abort: true });

/** The dates a clinic can mean: from 1900 (oldest birth dates) to 2200 (far-off procedures). */
export const MIN_DATE = "1900-01-01";
export const MAX_DATE = "2200-12-31";

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day as YYYY-MM-DD (no 2024-02-30, 2023-02-29 or month 13) within MIN_DATE…MAX_DATE. */
export function isCalendarDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth && value >= MIN_DATE && value <= MAX_DATE;
}

/** A YYYY-MM-DD field that must be a real calendar date (see isCalendarDate). */
export const calendarDate = (message = "Data inválida") =>
  z.string({ error: message }).trim().refine(isCalendarDate, { error: message, abort: true });

const ISO_INSTANT = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,6})?Z$/;

/** A UTC instant (e.g. a cursor's created_at) whose calendar day is real and within bounds. */
export function isIsoInstant(value: string): boolean {
  const match = ISO_INSTANT.exec(value);
  return Boolean(match?.[1] && isCalendarDate(match[1]));
}

/** The first place in a parsed JSON value (keys included) holding unsafe text, or null. */
export function findUnsafeText(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === "string") return isSafeText(value) ? null : path;
  if (value === null || typeof value !== "object" || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = findUnsafeText(value[i], [...path, String(i)], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (!isSafeText(key)) return [...path, "(chave)"];
    const found = findUnsafeText(inner, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}
