/**
 * The section editor's formatting commands (decision 034): pure edits of a textarea's text and
 * selection that write the markers the one parser (src/shared/document-model/formatting.ts)
 * reads. Each answers the new text and the selection to put back.
 */

export interface Edit {
  text: string;
  selectionStart: number;
  selectionEnd: number;
}

function clamp(text: string, start: number, end: number): [number, number] {
  const from = Math.max(0, Math.min(start, end, text.length));
  return [from, Math.max(from, Math.min(Math.max(start, end), text.length))];
}

/**
 * Bold ("**") or italic ("*") around the selection. Spaces at the selection's edges stay outside
 * the markers (a marker next to a space would not be read); a selection already wrapped in the
 * same marker is unwrapped; an empty selection gets an empty pair with the caret inside.
 */
export function toggleWrap(text: string, start: number, end: number, marker: "**" | "*"): Edit {
  let [from, to] = clamp(text, start, end);
  while (from < to && /\s/.test(text[from]!)) from++;
  while (to > from && /\s/.test(text[to - 1]!)) to--;
  const m = marker.length;
  const before = text.slice(Math.max(0, from - m), from);
  const after = text.slice(to, to + m);
  // Unwrap "**x**" (but not the inner "*" of "***x***" when asking for bold… it is still bold).
  const wrapped =
    before === marker &&
    after === marker &&
    !(marker === "*" && text[from - 2] === "*" && text[to + 1] === "*" && text[from - 3] !== "*");
  if (wrapped && from !== to) {
    return {
      text: text.slice(0, from - m) + text.slice(from, to) + text.slice(to + m),
      selectionStart: from - m,
      selectionEnd: to - m,
    };
  }
  const inner = text.slice(from, to);
  return {
    text: text.slice(0, from) + marker + inner + marker + text.slice(to),
    selectionStart: from + m,
    selectionEnd: to + m,
  };
}

const BULLET = /^(\s*)[-•]\s+/;
const NUMBER = /^(\s*)\d{1,4}[.)]\s+/;

/**
 * Turns the lines the selection touches into a bullet ("- ") or numbered ("1. ", "2. "…) list;
 * when every touched non-blank line already is that kind of list, the markers are removed.
 * Blank lines are left alone.
 */
export function toggleList(text: string, start: number, end: number, ordered: boolean): Edit {
  const [from, to] = clamp(text, start, end);
  const lineStart = text.lastIndexOf("\n", from - 1) + 1;
  const nextBreak = text.indexOf("\n", to > from && text[to - 1] === "\n" ? to - 1 : to);
  const lineEnd = nextBreak === -1 ? text.length : nextBreak;
  const lines = text.slice(lineStart, lineEnd).split("\n");
  const mine = ordered ? NUMBER : BULLET;
  const filled = lines.filter((line) => line.trim() !== "");
  const remove = filled.length > 0 && filled.every((line) => mine.test(line));
  let n = 0;
  const next = lines.map((line) => {
    if (line.trim() === "") return line;
    const bare = line.replace(BULLET, "$1").replace(NUMBER, "$1");
    if (remove) return bare;
    n += 1;
    const indent = /^\s*/.exec(bare)![0];
    return `${indent}${ordered ? `${n}. ` : "- "}${bare.slice(indent.length)}`;
  });
  const block = next.join("\n");
  return {
    text: text.slice(0, lineStart) + block + text.slice(lineEnd),
    selectionStart: lineStart,
    selectionEnd: lineStart + block.length,
  };
}
