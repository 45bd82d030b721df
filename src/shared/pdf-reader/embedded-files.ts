/**
 * Reads the embedded files of a PDF without any PDF library (the offline verifier must not need
 * poppler): the cross-reference tables from the last `startxref` back through /Prev (newer
 * entries win), the catalog's /Names → /EmbeddedFiles name tree (/Names and /Kids), each file
 * specification's /EF /F stream, inflated when /FlateDecode. It reads what pdfkit writes (classic
 * xref tables, no object streams, no encryption) plus @signpdf's incremental update; anything
 * else is reported as unreadable rather than guessed. Bytes, not Buffers, and the inflater given by
 * the caller (node:zlib on the server, fflate in the browser): the browser verifier reads with it
 * too (decision 077).
 */
import { fromHex, latin1 } from "./bytes.js";

export interface EmbeddedFile {
  name: string;
  bytes: Uint8Array;
}

/**
 * Inflates a /FlateDecode stream (zlib format) to at most `maxOutputLength` bytes; throws beyond
 * it (a few hundred kB of deflate can claim hundreds of MB) or on bad data.
 */
export type Inflate = (raw: Uint8Array, maxOutputLength: number) => Uint8Array;

type Ref = { ref: number };

/** Limits on what a PDF sent for verification may make us read (decision 049). */
export const MAX_EMBEDDED_FILES = 16;
export const MAX_EMBEDDED_FILE_BYTES = 16 * 1024 * 1024;

class PdfReader {
  private readonly text: string;
  private readonly offsets = new Map<number, number>();
  readonly trailer: string;

  constructor(
    private readonly pdf: Uint8Array,
    private readonly inflate: Inflate,
  ) {
    this.text = latin1(pdf);
    const start = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(this.text.slice(-1024));
    if (!start) throw new Error("startxref ausente");
    let offset: number | null = Number(start[1]);
    let newestTrailer: string | null = null;
    const seen = new Set<number>();
    while (offset !== null) {
      if (seen.has(offset)) throw new Error("tabela xref em ciclo");
      seen.add(offset);
      // Readers tolerate a startxref a few bytes off (@signpdf's incremental update writes one
      // byte short); so do we, within 16 bytes.
      const near = this.text.slice(Math.max(0, offset - 16), offset + 16).indexOf("xref");
      if (near >= 0) offset = Math.max(0, offset - 16) + near;
      const section = this.text.slice(offset);
      if (!section.startsWith("xref"))
        throw new Error("tabela xref não encontrada (fluxos de referência não são lidos)");
      const trailerAt = section.indexOf("trailer");
      if (trailerAt < 0) throw new Error("trailer ausente");
      const lines = section
        .slice(4, trailerAt)
        .trim()
        .split(/\r?\n|\r/);
      for (let i = 0; i < lines.length;) {
        const [first, count] = lines[i]!.trim().split(/\s+/).map(Number) as [number, number];
        // A subsection cannot list more entries than the lines that follow it (a forged count
        // would otherwise loop for as long as it says).
        if (
          !Number.isSafeInteger(first) ||
          !Number.isSafeInteger(count) ||
          first < 0 ||
          count < 0 ||
          count > lines.length - i - 1
        ) {
          throw new Error("tabela xref malformada");
        }
        for (let k = 0; k < count; k++) {
          const entry = lines[i + 1 + k]?.trim().split(/\s+/);
          if (entry?.[2] === "n" && !this.offsets.has(first + k)) this.offsets.set(first + k, Number(entry[0]));
        }
        i += 1 + count;
      }
      const trailer = this.dictionaryAt(section, trailerAt + "trailer".length);
      newestTrailer ??= trailer;
      const prev = /\/Prev\s+(\d+)/.exec(trailer);
      offset = prev ? Number(prev[1]) : null;
    }
    this.trailer = newestTrailer ?? "";
  }

  /** The `<< … >>` starting at or after `from` in `source` (balanced, strings skipped). */
  dictionaryAt(source: string, from: number): string {
    const start = source.indexOf("<<", from);
    if (start < 0) throw new Error("dicionário ausente");
    let depth = 0;
    for (let i = start; i < source.length; i++) {
      const c = source[i];
      if (c === "(") {
        // literal string: skip to its balanced end
        let level = 1;
        for (i++; i < source.length && level > 0; i++) {
          if (source[i] === "\\") i++;
          else if (source[i] === "(") level++;
          else if (source[i] === ")") level--;
        }
        i--;
      } else if (c === "<" && source[i + 1] === "<") {
        depth++;
        i++;
      } else if (c === ">" && source[i + 1] === ">") {
        depth--;
        i++;
        if (depth === 0) return source.slice(start, i + 1);
      }
    }
    throw new Error("dicionário sem fim");
  }

  /** The object's dictionary text, or its whole body when it is not a dictionary. */
  object(ref: number): { dict: string; body: string; at: number } {
    const at = this.offsets.get(ref);
    if (at === undefined) throw new Error(`objeto ${ref} ausente`);
    const header = new RegExp(`^${ref}\\s+\\d+\\s+obj`).exec(this.text.slice(at, at + 32));
    if (!header) throw new Error(`objeto ${ref} não está onde a xref diz`);
    const bodyStart = at + header[0].length;
    const end = this.text.indexOf("endobj", bodyStart);
    const body = this.text.slice(bodyStart, end < 0 ? undefined : end).trim();
    return { dict: body.startsWith("<<") ? this.dictionaryAt(this.text, bodyStart) : "", body, at: bodyStart };
  }

  stream(ref: number): Uint8Array {
    const { dict, at } = this.object(ref);
    const length = /\/Length\s+(\d+)(\s+\d+\s+R)?/.exec(dict);
    if (!length) throw new Error(`fluxo ${ref} sem /Length`);
    const size = length[2] ? Number(/^\s*(\d+)/.exec(this.object(Number(length[1])).body)![1]) : Number(length[1]);
    const keyword = this.text.indexOf("stream", at + dict.length);
    let dataStart = keyword + "stream".length;
    if (this.text[dataStart] === "\r") dataStart++;
    if (this.text[dataStart] === "\n") dataStart++;
    if (!Number.isSafeInteger(size) || size < 0 || size > MAX_EMBEDDED_FILE_BYTES)
      throw new Error(`fluxo ${ref} grande demais`);
    const raw = this.pdf.subarray(dataStart, dataStart + size);
    const filter = /\/Filter\s*(\[\s*)?\/(\w+)/.exec(dict)?.[2];
    if (!filter) return raw.slice();
    if (filter === "FlateDecode") {
      try {
        // Bounded: a few hundred kB of deflate can claim hundreds of MB.
        return this.inflate(raw, MAX_EMBEDDED_FILE_BYTES);
      } catch {
        throw new Error(`fluxo ${ref} ilegível ou grande demais`);
      }
    }
    throw new Error(`filtro /${filter} não suportado`);
  }
}

const refIn = (dict: string, key: string): Ref | null => {
  const match = new RegExp(`/${key}\\s+(\\d+)\\s+\\d+\\s+R`).exec(dict);
  return match ? { ref: Number(match[1]) } : null;
};

/** A PDF string token's text: (literal) with escapes, or <hex>; UTF-16BE with BOM, else Latin-1. */
export function pdfStringText(token: string): string {
  let bytes: Uint8Array;
  if (token.startsWith("<")) {
    const hex = token.slice(1, -1).replace(/\s+/g, "");
    bytes = fromHex(hex.length % 2 ? `${hex}0` : hex);
  } else {
    const out: number[] = [];
    const s = token.slice(1, -1);
    for (let i = 0; i < s.length; i++) {
      const c = s[i]!;
      if (c !== "\\") {
        out.push(c.charCodeAt(0) & 0xff);
        continue;
      }
      const n = s[++i]!;
      const simple: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, "(": 40, ")": 41, "\\": 92 };
      if (n in simple) out.push(simple[n]!);
      else if (/[0-7]/.test(n)) {
        let oct = n;
        while (oct.length < 3 && /[0-7]/.test(s[i + 1] ?? "")) oct += s[++i];
        out.push(parseInt(oct, 8) & 0xff);
      } else if (n === "\r" || n === "\n") {
        if (n === "\r" && s[i + 1] === "\n") i++;
      } else out.push(n.charCodeAt(0) & 0xff);
    }
    bytes = Uint8Array.from(out);
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    let text = "";
    for (let i = 2; i + 1 < bytes.length; i += 2) text += String.fromCharCode((bytes[i]! << 8) | bytes[i + 1]!);
    return text;
  }
  return latin1(bytes);
}

const STRING_OR_REF = /\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>|(\d+)\s+\d+\s+R/g;

/** Every embedded file of the document (name tree order); throws when the PDF cannot be read. */
export function embeddedFiles(pdf: Uint8Array, inflate: Inflate): EmbeddedFile[] {
  const reader = new PdfReader(pdf, inflate);
  const root = refIn(reader.trailer, "Root");
  if (!root) throw new Error("trailer sem /Root");
  const catalog = reader.object(root.ref).dict;
  const namesRef = refIn(catalog, "Names");
  const inlineNames = /\/Names\s*<</.exec(catalog);
  const namesDict = namesRef
    ? reader.object(namesRef.ref).dict
    : inlineNames
      ? reader.dictionaryAt(catalog, inlineNames.index)
      : null;
  if (!namesDict) return [];
  const treeRef = refIn(namesDict, "EmbeddedFiles");
  const inline = /\/EmbeddedFiles\s*<</.exec(namesDict);
  if (!treeRef && !inline) return [];
  const out: EmbeddedFile[] = [];
  // Each file stream is read once, and only so many: our PDFs carry two (documento.json, evidencias.json).
  const seen = new Set<number>();
  let total = 0;
  const visit = (node: string, depth: number) => {
    if (depth > 16) throw new Error("árvore de nomes profunda demais");
    const kids = /\/Kids\s*\[([^\]]*)\]/.exec(node)?.[1];
    if (kids) for (const kid of kids.matchAll(/(\d+)\s+\d+\s+R/g)) visit(reader.object(Number(kid[1])).dict, depth + 1);
    const names = /\/Names\s*\[([\s\S]*?)\]/.exec(node)?.[1];
    if (!names) return;
    const tokens = [...names.matchAll(STRING_OR_REF)];
    for (let i = 0; i + 1 < tokens.length; i += 2) {
      const name = pdfStringText(tokens[i]![0]);
      const spec = Number(tokens[i + 1]![1]);
      const specDict = reader.object(spec).dict;
      const ef = /\/EF\s*<<([\s\S]*?)>>/.exec(specDict)?.[1] ?? "";
      const file = refIn(ef, "F") ?? refIn(ef, "UF");
      if (!file) throw new Error(`anexo ${name} sem fluxo`);
      if (seen.has(file.ref)) throw new Error(`anexo ${name} repete um fluxo já lido`);
      seen.add(file.ref);
      if (out.length >= MAX_EMBEDDED_FILES) throw new Error("anexos demais");
      const bytes = reader.stream(file.ref);
      total += bytes.length;
      if (total > MAX_EMBEDDED_FILE_BYTES) throw new Error("anexos grandes demais");
      out.push({ name, bytes });
    }
  };
  visit(treeRef ? reader.object(treeRef.ref).dict : reader.dictionaryAt(namesDict, inline!.index), 0);
  return out;
}

/** The /Info dictionary entry `key` of the newest trailer, as text (null when absent). */
export function infoEntry(pdf: Uint8Array, key: string): string | null {
  const reader = new PdfReader(pdf, () => {
    throw new Error("sem fluxos");
  });
  const info = refIn(reader.trailer, "Info");
  if (!info) return null;
  const dict = reader.object(info.ref).dict;
  const match = new RegExp(`/${key}\\s*(\\((?:\\\\.|[^\\\\)])*\\)|<[0-9A-Fa-f\\s]*>|(\\d+)\\s+\\d+\\s+R)`).exec(dict);
  if (!match) return null;
  const token = match[2] ? reader.object(Number(match[2])).body : match[1]!;
  return /^[(<]/.test(token) ? pdfStringText(token) : null;
}
