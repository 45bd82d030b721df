/**
 * Where a PDF's signatures are (decision 049 for the limits, 053 for document time-stamps): every
 * /ByteRange [0 b c d] with the kind its dictionary's /SubFilter names, and the shape a signed
 * range must have — the gap exactly the /Contents hex string. Pure text work, shared by the
 * server's verifier (verify-pdf-signature.ts) and the browser's (decision 077).
 */
export type SignatureKind = "assinatura" | "carimbo_documento";

export interface FoundRange {
  range: [number, number, number, number];
  kind: SignatureKind;
}

const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
/** %%EOF, optionally followed by its end-of-line, at the end of a signed revision. */
export const REVISION_END = /%%EOF(\r\n|\r|\n)?$/;

/** More signatures than any PDF of ours carries (the professional's, the seal): refused unread (decision 049). */
export const MAX_PDF_SIGNATURES = 8;
/**
 * Document time-stamps, counted apart: the sealing's and one per archive revision (decision 064) —
 * twenty years of yearly renewals fit with room to spare.
 */
export const MAX_DOCUMENT_TIMESTAMPS = 32;

/**
 * The file's /ByteRange arrays, in order, each with the kind its dictionary's /SubFilter names (the
 * entries before /ByteRange, as @signpdf writes them); reading stops once either kind is past its
 * limit (MAX_PDF_SIGNATURES, MAX_DOCUMENT_TIMESTAMPS).
 */
export function byteRanges(text: string): FoundRange[] {
  const ranges: FoundRange[] = [];
  for (const m of text.matchAll(BYTE_RANGE)) {
    const dictionary = text.slice(Math.max(0, text.lastIndexOf("<<", m.index)), m.index);
    const kind = /\/SubFilter\s*\/ETSI\.RFC3161\b/.test(dictionary) ? "carimbo_documento" : "assinatura";
    ranges.push({ range: m.slice(1, 5).map(Number) as FoundRange["range"], kind });
    if (tooMany(ranges)) break;
  }
  return ranges;
}

/** Why the file is refused unread, or null: more signatures or document time-stamps than ours carry. */
export function tooMany(ranges: FoundRange[]): string | null {
  const stamps = ranges.filter((r) => r.kind === "carimbo_documento").length;
  if (ranges.length - stamps > MAX_PDF_SIGNATURES) return `mais de ${MAX_PDF_SIGNATURES} assinaturas`;
  if (stamps > MAX_DOCUMENT_TIMESTAMPS) return `mais de ${MAX_DOCUMENT_TIMESTAMPS} carimbos do tempo do documento`;
  return null;
}

/**
 * The /Contents hex of a well-formed range, or why it is not one: it starts at 0, the gap is
 * exactly `<hex>` with an even number of digits, and it ends within the file.
 */
export function rangeContents(
  text: string,
  length: number,
  range: FoundRange["range"],
): { hex: string; coversWholeFile: boolean; endsAtEof: boolean } | { error: string } {
  const [a, b, c, d] = range;
  if (a !== 0 || b <= 0 || c <= b || c + d > length) return { error: "/ByteRange malformado" };
  const gap = text.slice(b, c);
  if (!/^<[0-9a-fA-F]*>$/.test(gap)) return { error: "o intervalo não assinado não é só o /Contents" };
  const hex = gap.slice(1, -1);
  if (hex.length % 2 !== 0) return { error: "/Contents com número ímpar de dígitos" };
  return {
    hex,
    coversWholeFile: c + d === length,
    endsAtEof: REVISION_END.test(text.slice(Math.max(0, c + d - 8), c + d)),
  };
}
