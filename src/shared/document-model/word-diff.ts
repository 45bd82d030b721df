/**
 * A word-level diff (longest common subsequence over words and the spaces between them), for
 * comparing two versions of a template (Histórico de Versões). Pure, no dependency.
 */

export type DiffPart = { kind: "same" | "added" | "removed"; text: string };

/** Above this many LCS cells (after the common ends are cut) the middle is shown as replaced. */
const MAX_CELLS = 4_000_000;

/** Words, spaces and punctuation as separate tokens ("Olá, mundo" → "Olá" "," " " "mundo"). */
export function tokenizeWords(text: string): string[] {
  return text.match(/\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];
}

function push(out: DiffPart[], kind: DiffPart["kind"], text: string): void {
  if (text === "") return;
  const last = out[out.length - 1];
  if (last?.kind === kind) last.text += text;
  else out.push({ kind, text });
}

/** The parts that turn `before` into `after`; removals come before additions at each change. */
export function diffWords(before: string, after: string): DiffPart[] {
  const a = tokenizeWords(before);
  const b = tokenizeWords(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const out: DiffPart[] = [];
  push(out, "same", a.slice(0, start).join(""));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  if (n * m > MAX_CELLS) {
    push(out, "removed", midA.join(""));
    push(out, "added", midB.join(""));
  } else {
    // lcs[i][j] = LCS length of midA[i..] and midB[j..], in one flat array.
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * width + j] =
          midA[i] === midB[j]
            ? lcs[(i + 1) * width + j + 1]! + 1
            : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    let removed = "";
    let added = "";
    const flush = (): void => {
      push(out, "removed", removed);
      push(out, "added", added);
      removed = "";
      added = "";
    };
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        flush();
        push(out, "same", midA[i]!);
        i++;
        j++;
      } else if (j < m && (i === n || lcs[i * width + j + 1]! >= lcs[(i + 1) * width + j]!)) {
        added += midB[j++]!;
      } else {
        removed += midA[i++]!;
      }
    }
    flush();
  }
  push(out, "same", a.slice(endA).join(""));
  return out;
}
