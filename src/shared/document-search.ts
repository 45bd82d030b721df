/**
 * What a documents-list search means. "#5aa51af9" — the short id as the list shows it (spec part 1
 * §3: '#' + the last 8 characters of the id) — or its first characters ("#5aa5") look for that
 * short id only; any other term (with or without a leading '#') searches patient, procedure,
 * title and the id as text.
 */
export type DocumentSearch = { kind: "short-id"; prefix: string } | { kind: "text"; term: string };

const SHORT_ID = /^#\s*([0-9a-f]{1,8})$/i;

export function parseDocumentSearch(q: string): DocumentSearch | null {
  const value = q.trim();
  const short = SHORT_ID.exec(value);
  if (short?.[1]) return { kind: "short-id", prefix: short[1].toLowerCase() };
  const term = value.replace(/^#+/, "").trim();
  return term ? { kind: "text", term } : null;
}
