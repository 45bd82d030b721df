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

/**
 * Where a searched text can sit in a document's busca — app_search_text of "título procedimento
 * paciente_nome id", the four joined by single spaces — other than in título and procedimento
 * (decision 036). `text` is the term as busca compares it (app_search_text of the escaped term).
 *
 * When its last word has a character no uuid has (anything but 0-9, a-f and '-'), an occurrence
 * cannot reach the id; so it lies in "título procedimento", or in the patient's name, or it starts
 * there and crosses into the name at one of its spaces, the rest being how the name begins. The
 * answer is the LIKE patterns of those names: the whole text anywhere, and what follows each space
 * at the start. null when the text may reach the id, or holds a LIKE wildcard or escape: the
 * trigram index on busca answers those.
 */
export function patientNamePatterns(text: string): string[] | null {
  if (/[\\%_]/.test(text)) return null;
  const lastWord = text.slice(text.lastIndexOf(" ") + 1);
  if (!/[^0-9a-f-]/.test(lastWord)) return null;
  const patterns = [`%${text}%`];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === " ") patterns.push(`${text.slice(i + 1)}%`);
  }
  return [...new Set(patterns)];
}
