/**
 * A small, bounded reader of the PDFs we write (decision 053): classic cross-reference tables (no
 * object streams — pdfmake and @signpdf/placeholder-plain write none), followed revision by
 * revision through /Prev, and direct objects parsed into values. It is enough to find the catalog,
 * the DSS and the objects an incremental update defines; it is not a general PDF parser, and a file
 * it cannot follow is reported as such (PdfStructureError), never guessed at. Bytes, not Buffers:
 * the browser verifier reads with it too (decision 077).
 */
import { fromHex, latin1, toHex } from "./bytes.js";

export class PdfStructureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PdfStructureError";
  }
}

export type PdfValue =
  | { kind: "dict"; entries: Map<string, PdfValue> }
  | { kind: "array"; items: PdfValue[] }
  | { kind: "ref"; num: number; gen: number }
  | { kind: "name"; value: string }
  | { kind: "number"; value: number }
  | { kind: "string"; bytes: Uint8Array }
  | { kind: "other"; value: string };

export interface PdfObject {
  num: number;
  offset: number;
  value: PdfValue;
  /** The stream's bytes, for a stream object (its /Length must be direct). */
  stream?: Uint8Array;
  /** Where `N G obj` … `endobj` ends (exclusive). */
  end: number;
}

/** One revision: the bytes up to (and including) its %%EOF, and the objects its xref section defines. */
export interface PdfRevision {
  /** Offset just after this revision's %%EOF (and its end-of-line, when present). */
  end: number;
  xrefOffset: number;
  /** Object number → offset, for the objects this section marks in use. */
  defined: Map<number, number>;
  /** Object numbers this section marks free (0, the list's head, left out). */
  freed: Set<number>;
  trailer: Map<string, PdfValue>;
}

/** Revisions we follow at most (ours have two to five). */
const MAX_REVISIONS = 64;
const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

class Lexer {
  constructor(
    readonly pdf: Uint8Array,
    public at: number,
  ) {}

  skip(): void {
    const pdf = this.pdf;
    while (this.at < pdf.length) {
      const c = pdf[this.at]!;
      if (WHITESPACE.has(c)) this.at++;
      else if (c === 0x25) {
        while (this.at < pdf.length && pdf[this.at] !== 0x0a && pdf[this.at] !== 0x0d) this.at++;
      } else break;
    }
  }

  word(): string {
    this.skip();
    const start = this.at;
    while (this.at < this.pdf.length && !WHITESPACE.has(this.pdf[this.at]!) && !DELIMITERS.has(this.pdf[this.at]!))
      this.at++;
    return latin1(this.pdf, start, this.at);
  }

  peek(text: string): boolean {
    this.skip();
    return latin1(this.pdf, this.at, this.at + text.length) === text;
  }

  expect(text: string): void {
    if (!this.peek(text)) throw new PdfStructureError(`esperado “${text}” na posição ${this.at}`);
    this.at += text.length;
  }

  value(depth = 0): PdfValue {
    if (depth > 32) throw new PdfStructureError("objeto aninhado demais");
    this.skip();
    const c = this.pdf[this.at];
    if (c === undefined) throw new PdfStructureError("fim do arquivo dentro de um objeto");
    if (this.peek("<<")) {
      this.at += 2;
      const entries = new Map<string, PdfValue>();
      while (!this.peek(">>")) {
        const key = this.value(depth + 1);
        if (key.kind !== "name") throw new PdfStructureError(`chave de dicionário inválida na posição ${this.at}`);
        entries.set(key.value, this.value(depth + 1));
      }
      this.at += 2;
      return { kind: "dict", entries };
    }
    if (c === 0x5b) {
      this.at++;
      const items: PdfValue[] = [];
      while (!this.peek("]")) items.push(this.value(depth + 1));
      this.at++;
      return { kind: "array", items };
    }
    if (c === 0x2f) {
      this.at++;
      const start = this.at;
      while (this.at < this.pdf.length && !WHITESPACE.has(this.pdf[this.at]!) && !DELIMITERS.has(this.pdf[this.at]!))
        this.at++;
      return { kind: "name", value: latin1(this.pdf, start, this.at) };
    }
    if (c === 0x3c) {
      const close = this.pdf.indexOf(0x3e, this.at);
      if (close < 0) throw new PdfStructureError("cadeia hexadecimal sem fim");
      const hex = latin1(this.pdf, this.at + 1, close).replace(/\s+/g, "");
      this.at = close + 1;
      return { kind: "string", bytes: fromHex(hex.length % 2 ? `${hex}0` : hex) };
    }
    if (c === 0x28) return { kind: "string", bytes: this.literal() };
    const word = this.word();
    if (word === "") throw new PdfStructureError(`valor inesperado na posição ${this.at}`);
    if (/^[+-]?\d+$/.test(word)) {
      // `N G R`: look ahead without consuming when it is not a reference.
      const save = this.at;
      const gen = this.word();
      if (/^\d+$/.test(gen) && this.word() === "R") return { kind: "ref", num: Number(word), gen: Number(gen) };
      this.at = save;
      return { kind: "number", value: Number(word) };
    }
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return { kind: "number", value: Number(word) };
    return { kind: "other", value: word };
  }

  /** A literal string `( … )` with balanced parentheses and escapes. */
  private literal(): Uint8Array {
    const out: number[] = [];
    let depth = 0;
    const pdf = this.pdf;
    this.at++;
    while (this.at < pdf.length) {
      const c = pdf[this.at++]!;
      if (c === 0x5c) {
        const next = pdf[this.at++];
        if (next === undefined) break;
        const simple: Record<number, number> = { 0x6e: 10, 0x72: 13, 0x74: 9, 0x62: 8, 0x66: 12 };
        if (simple[next] !== undefined) out.push(simple[next]!);
        else if (next >= 0x30 && next <= 0x37) {
          let octal = String.fromCharCode(next);
          while (octal.length < 3 && pdf[this.at]! >= 0x30 && pdf[this.at]! <= 0x37)
            octal += String.fromCharCode(pdf[this.at++]!);
          out.push(parseInt(octal, 8) & 0xff);
        } else if (next !== 0x0a && next !== 0x0d) out.push(next);
        continue;
      }
      if (c === 0x28) depth++;
      if (c === 0x29) {
        if (depth === 0) return Uint8Array.from(out);
        depth--;
      }
      out.push(c);
    }
    throw new PdfStructureError("cadeia literal sem fim");
  }
}

/** The xref section at `offset` (classic table) and its trailer. */
function readXrefSection(
  pdf: Uint8Array,
  offset: number,
): { defined: Map<number, number>; freed: Set<number>; trailer: Map<string, PdfValue>; end: number } {
  const lexer = new Lexer(pdf, offset);
  lexer.expect("xref");
  const defined = new Map<number, number>();
  const freed = new Set<number>();
  while (!lexer.peek("trailer")) {
    const firstWord = lexer.word();
    const countWord = lexer.word();
    const first = Number(firstWord);
    const count = Number(countWord);
    // Each entry is 20 bytes: a subsection cannot claim more entries than the bytes that follow (decision 049).
    if (!/^\d+$/.test(firstWord) || !/^\d+$/.test(countWord) || count * 18 > pdf.length - lexer.at)
      throw new PdfStructureError(`tabela de referências cruzadas ilegível na posição ${offset}`);
    for (let i = 0; i < count; i++) {
      const at = Number(lexer.word());
      lexer.word();
      const flag = lexer.word();
      if (flag === "n") defined.set(first + i, at);
      else if (flag === "f") {
        if (first + i !== 0) freed.add(first + i);
      } else throw new PdfStructureError(`entrada de referência cruzada inválida na posição ${lexer.at}`);
    }
  }
  lexer.expect("trailer");
  const trailer = lexer.value();
  if (trailer.kind !== "dict") throw new PdfStructureError("trailer sem dicionário");
  lexer.expect("startxref");
  lexer.word();
  while (lexer.at < pdf.length && WHITESPACE.has(pdf[lexer.at]!)) lexer.at++;
  const eof = /^%%EOF(\r\n|\r|\n)?/.exec(latin1(pdf, lexer.at, lexer.at + 7));
  if (!eof) throw new PdfStructureError("trailer sem %%EOF");
  return { defined, freed, trailer: trailer.entries, end: lexer.at + eof[0].length };
}

/** The last `startxref` of the file. */
function lastStartxref(pdf: Uint8Array): number {
  const tail = latin1(pdf, Math.max(0, pdf.length - 1024));
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!match) throw new PdfStructureError("o arquivo não termina com startxref e %%EOF");
  return Number(match[1]);
}

/** Every revision, first to last, following /Prev from the last startxref. */
export function readRevisions(pdf: Uint8Array): PdfRevision[] {
  const revisions: PdfRevision[] = [];
  let offset: number | null = lastStartxref(pdf);
  const seen = new Set<number>();
  while (offset !== null) {
    if (seen.has(offset) || revisions.length >= MAX_REVISIONS || offset >= pdf.length)
      throw new PdfStructureError("cadeia de revisões (/Prev) inválida");
    seen.add(offset);
    const section = readXrefSection(pdf, offset);
    revisions.unshift({
      end: section.end,
      xrefOffset: offset,
      defined: section.defined,
      freed: section.freed,
      trailer: section.trailer,
    });
    const prev = section.trailer.get("Prev");
    offset = prev?.kind === "number" ? prev.value : null;
  }
  return revisions;
}

/** The object at `offset` (`N G obj … endobj`), with its stream bytes when it is a stream. */
export function readObjectAt(pdf: Uint8Array, offset: number): PdfObject {
  const lexer = new Lexer(pdf, offset);
  const num = Number(lexer.word());
  lexer.word();
  lexer.expect("obj");
  const value = lexer.value();
  const result: PdfObject = { num, offset, value, end: 0 };
  if (lexer.peek("stream")) {
    lexer.at += "stream".length;
    if (pdf[lexer.at] === 0x0d) lexer.at++;
    if (pdf[lexer.at] === 0x0a) lexer.at++;
    const length = value.kind === "dict" ? value.entries.get("Length") : undefined;
    if (length?.kind !== "number") throw new PdfStructureError(`fluxo ${num} sem /Length direto`);
    if (lexer.at + length.value > pdf.length) throw new PdfStructureError(`fluxo ${num} além do fim do arquivo`);
    result.stream = pdf.subarray(lexer.at, lexer.at + length.value);
    lexer.at += length.value;
    lexer.expect("endstream");
  }
  lexer.expect("endobj");
  result.end = lexer.at;
  return result;
}

/** The newest offset of each object up to `revisions` (later revisions win). */
export function objectOffsets(revisions: readonly PdfRevision[]): Map<number, number> {
  const offsets = new Map<number, number>();
  for (const revision of revisions) for (const [num, at] of revision.defined) offsets.set(num, at);
  return offsets;
}

export const dictOf = (value: PdfValue | undefined): Map<string, PdfValue> | null =>
  value?.kind === "dict" ? value.entries : null;
export const nameOf = (value: PdfValue | undefined): string | null => (value?.kind === "name" ? value.value : null);
export const refsOf = (value: PdfValue | undefined): number[] =>
  value?.kind === "array" ? value.items.flatMap((item) => (item.kind === "ref" ? [item.num] : [])) : [];

/** The object numbered `num` as of the given revisions, or null. */
export function objectIn(pdf: Uint8Array, offsets: Map<number, number>, num: number): PdfObject | null {
  const at = offsets.get(num);
  return at === undefined ? null : readObjectAt(pdf, at);
}

/** A value written back as PDF syntax (our own writer's subset). */
export function writeValue(value: PdfValue): string {
  switch (value.kind) {
    case "dict":
      return `<<${[...value.entries].map(([k, v]) => ` /${k} ${writeValue(v)}`).join("")} >>`;
    case "array":
      return `[${value.items.map(writeValue).join(" ")}]`;
    case "ref":
      return `${value.num} ${value.gen} R`;
    case "name":
      return `/${value.value}`;
    case "number":
      return String(value.value);
    case "string":
      return `<${toHex(value.bytes).toUpperCase()}>`;
    case "other":
      return value.value;
  }
}
