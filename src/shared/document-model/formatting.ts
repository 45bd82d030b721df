/**
 * Basic formatting of template text (decision 034): a small markdown subset, parsed here and only
 * here into structured runs — never into HTML.
 *
 * - `**negrito**`, `*itálico*` and `***ambos***`. A marker opens only before a non-space and
 *   closes only after one (so "2 * 3 * 4" and "* item" stay as written); a style never nests in
 *   itself (bold inside bold is literal), so a run is at most bold + italic; a marker left
 *   unclosed prints as written; `\*` is a literal asterisk.
 * - In paragraph sections, lines starting with "- " (or "• ") form a bullet list and lines
 *   starting with "1. " (or "1) ") a numbered list. `\-` and `\1.` at a line start keep the line a
 *   paragraph.
 * - Only the template's own text is read for markers: a variable's value (a patient's name with
 *   an asterisk, say) is always literal text, and a placeholder is an atom, so `**{{nome}}**` is a
 *   bold name.
 *
 * Text without markers comes out exactly as before this existed (no style flags are written), so
 * models and their hashes do not change for it.
 */

/** A run of the template's text (`literal` unset) or of a variable's value (`literal: true`). */
export type Piece = { kind: "text"; text: string; literal?: true } | { kind: "missing"; name: string };

export interface InlineStyle {
  bold?: true;
  italic?: true;
}

export type StyledInline = ({ kind: "text"; text: string } | { kind: "missing"; name: string }) & InlineStyle;

type Token =
  | { type: "text"; text: string }
  | { type: "missing"; name: string }
  | { type: "delim"; length: number; canOpen: boolean; canClose: boolean; text: string };

const SPACE = /\s/u;

/** Splits pieces into tokens: template text is scanned for `*` runs and `\*` escapes. */
function tokenize(pieces: readonly Piece[]): Token[] {
  const tokens: Token[] = [];
  const pushText = (text: string): void => {
    if (text === "") return;
    const last = tokens[tokens.length - 1];
    if (last?.type === "text") last.text += text;
    else tokens.push({ type: "text", text });
  };
  // Character just before / after a position, across piece boundaries: a value or a placeholder
  // counts as a non-space character (it is a word of the sentence).
  const charBefore = (p: number, i: number): string => {
    const piece = pieces[p]!;
    if (piece.kind === "text" && i > 0) return piece.text[i - 1]!;
    const prev = pieces[p - 1];
    if (prev === undefined) return " ";
    if (prev.kind === "missing" || prev.literal) return "x";
    return prev.text === "" ? " " : prev.text[prev.text.length - 1]!;
  };
  const charAfter = (p: number, i: number): string => {
    const piece = pieces[p]!;
    if (piece.kind === "text" && i < piece.text.length) return piece.text[i]!;
    const next = pieces[p + 1];
    if (next === undefined) return " ";
    if (next.kind === "missing" || next.literal) return "x";
    return next.text === "" ? " " : next.text[0]!;
  };
  pieces.forEach((piece, p) => {
    if (piece.kind === "missing") {
      tokens.push({ type: "missing", name: piece.name });
      return;
    }
    if (piece.literal) {
      pushText(piece.text);
      return;
    }
    const { text } = piece;
    let plain = "";
    let i = 0;
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === "\\" && text[i + 1] === "*") {
        plain += "*";
        i += 2;
        continue;
      }
      if (ch !== "*") {
        plain += ch;
        i += 1;
        continue;
      }
      let end = i;
      while (text[end] === "*") end += 1;
      const length = end - i;
      const run = text.slice(i, end);
      if (length > 3) {
        plain += run;
      } else {
        pushText(plain);
        plain = "";
        const before = charBefore(p, i);
        const after = charAfter(p, end);
        tokens.push({ type: "delim", length, canOpen: !SPACE.test(after), canClose: !SPACE.test(before), text: run });
      }
      i = end;
    }
    pushText(plain);
  });
  return tokens;
}

const styleOf = (length: number): InlineStyle =>
  length === 1 ? { italic: true } : length === 2 ? { bold: true } : { bold: true, italic: true };

/**
 * Inline formatting of one block (a paragraph, a list item, a title-less line): styled runs. Runs
 * of the same style are merged; unstyled runs carry no flags.
 */
export function formatInlines(pieces: readonly Piece[]): StyledInline[] {
  const tokens = tokenize(pieces);
  // Pair delimiters with a stack of openers; a closer pairs with the nearest opener of its length.
  const pairedWith = new Map<number, number>();
  const stack: number[] = [];
  const open = (): InlineStyle => {
    const style: InlineStyle = {};
    for (const index of stack) Object.assign(style, styleOf((tokens[index] as { length: number }).length));
    return style;
  };
  tokens.forEach((token, index) => {
    if (token.type !== "delim") return;
    if (token.canClose) {
      for (let s = stack.length - 1; s >= 0; s--) {
        const opener = tokens[stack[s]!] as { length: number };
        if (opener.length === token.length) {
          pairedWith.set(stack[s]!, index);
          pairedWith.set(index, stack[s]!);
          stack.length = s; // openers above it stay unpaired (printed as written)
          return;
        }
      }
    }
    if (token.canOpen) {
      const current = open();
      const wanted = styleOf(token.length);
      // Nesting limit: a style already open is not opened again.
      if ((wanted.bold && current.bold) || (wanted.italic && current.italic)) return;
      stack.push(index);
    }
  });

  const out: StyledInline[] = [];
  const active: number[] = [];
  const styleNow = (): InlineStyle => {
    const style: InlineStyle = {};
    for (const index of active) Object.assign(style, styleOf((tokens[index] as { length: number }).length));
    return style;
  };
  const push = (inline: StyledInline): void => {
    const last = out[out.length - 1];
    if (inline.kind === "text" && last?.kind === "text" && last.bold === inline.bold && last.italic === inline.italic) {
      last.text += inline.text;
    } else if (inline.kind !== "text" || inline.text !== "") {
      out.push(inline);
    }
  };
  tokens.forEach((token, index) => {
    if (token.type === "delim") {
      const partner = pairedWith.get(index);
      if (partner === undefined) push({ kind: "text", text: token.text, ...styleNow() });
      else if (partner > index) active.push(index);
      else active.splice(active.indexOf(partner), 1);
      return;
    }
    if (token.type === "missing") push({ kind: "missing", name: token.name, ...styleNow() });
    else push({ kind: "text", text: token.text, ...styleNow() });
  });
  return out;
}

/** A list line of a paragraph section: its kind, number and the length of its marker. */
export interface ListMarker {
  ordered: boolean;
  /** The number written, for a numbered line. */
  number?: number;
  /** Characters of the marker and the spaces after it. */
  length: number;
}

const BULLET_LINE = /^\s*[-•]\s+/u;
const NUMBERED_LINE = /^\s*(\d{1,4})[.)]\s+/u;
const ESCAPED_MARKER = /^(\s*)\\(?=[-•]\s|\d{1,4}[.)]\s)/u;

/** The list marker that starts a line of template text, or null (an escaped one is not). */
export function listMarkerOf(text: string): ListMarker | null {
  const bullet = BULLET_LINE.exec(text);
  if (bullet) return { ordered: false, length: bullet[0].length };
  const numbered = NUMBERED_LINE.exec(text);
  if (numbered) return { ordered: true, number: Number(numbered[1]), length: numbered[0].length };
  return null;
}

/** Drops the backslash of an escaped list marker at a line start ("\- " → "- "). */
export function unescapeLineStart(text: string): string {
  return text.replace(ESCAPED_MARKER, "$1");
}
