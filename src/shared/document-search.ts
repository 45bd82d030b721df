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

/** The parts of a document's busca a text search reads besides "título procedimento" (decision 036). */
export interface DocumentSearchParts {
  /** LIKE patterns of the patients' names (contrato_nomes.nome) that can hold a match. */
  names: string[];
  /** The start a matching document's id must have, when a match can reach the id; else null. */
  idPrefix: string | null;
}

/**
 * Where a searched text can sit in a document's busca — app_search_text of "título procedimento
 * paciente_nome id", the four joined by single spaces (decision 036). `text` is the term as busca
 * compares it (app_search_text of the escaped term). An occurrence lies in "título procedimento";
 * or in the patient's name; or it starts there and crosses into the name at one of the text's
 * spaces, the rest being how the name begins; or it reaches the id, which has no space, so the
 * text's last word is how the id begins. The last case is possible only when that word has
 * nothing but 0-9, a-f and '-'.
 *
 * null when the parts cannot say it: a text of one word that could sit anywhere in an id, a text
 * ending in a space, or one holding a LIKE wildcard or escape. The trigram index on busca answers those.
 */
export function documentSearchParts(text: string): DocumentSearchParts | null {
  if (/[\\%_]/.test(text)) return null;
  const lastSpace = text.lastIndexOf(" ");
  const lastWord = text.slice(lastSpace + 1);
  const mayReachId = !/[^0-9a-f-]/.test(lastWord);
  if (mayReachId && (lastSpace < 0 || lastWord === "")) return null;
  const names = [`%${text}%`];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === " ") names.push(`${text.slice(i + 1)}%`);
  }
  return { names: [...new Set(names)], idPrefix: mayReachId ? lastWord : null };
}

const LOWEST_ID = "00000000-0000-0000-0000-000000000000";
const HIGHEST_ID = "ffffffff-ffff-ffff-ffff-ffffffffffff";

/**
 * The uuids whose text starts with `prefix`, as an inclusive range (uuids sort as their text), or
 * null when no uuid's text can start so.
 */
export function uuidPrefixRange(prefix: string): [string, string] | null {
  if (prefix.length > LOWEST_ID.length) return null;
  for (let i = 0; i < prefix.length; i++) {
    const fits = LOWEST_ID[i] === "-" ? prefix[i] === "-" : /[0-9a-f]/.test(prefix[i] ?? "");
    if (!fits) return null;
  }
  return [prefix + LOWEST_ID.slice(prefix.length), prefix + HIGHEST_ID.slice(prefix.length)];
}
