/**
 * Two small repairs to the incremental update @signpdf/placeholder-plain appends, made before
 * the signature is computed (only bytes of the new update's trailer change, after every object
 * and cross-reference entry, so no offset moves):
 *
 * - `startxref` points at the newline before `xref` instead of at `xref` (ISO 32000-1 §7.5.5:
 *   the byte offset of the `xref` keyword); qpdf reports "extraneous whitespace seen before xref".
 * - on a PDF that already has an AcroForm (our second signature) it reuses the AcroForm's object
 *   number but still counts a new one, so `/Size` is one more than the highest object number + 1.
 */
const LAST_XREF = /\nxref\n/g;

export function tidyIncrementalTrailer(pdf: Buffer): Buffer {
  const text = pdf.toString("latin1");
  let xrefAt = -1;
  for (const match of text.matchAll(LAST_XREF)) xrefAt = match.index + 1;
  if (xrefAt < 0) return pdf;
  const update = text.slice(xrefAt);
  const tail = /trailer\s*<<([\s\S]*?)>>\s*startxref\s*(\d+)\s*%%EOF$/.exec(update);
  if (!tail) return pdf;

  // The highest object number of the new section, and the previous revision's /Size.
  const entries = [...update.slice(0, tail.index).matchAll(/^(\d+) 1$/gm)].map((m) => Number(m[1]));
  const sizeAt = text.lastIndexOf("/Size", xrefAt);
  const previousSize = sizeAt < 0 ? 0 : Number(/^\/Size\s+(\d+)/.exec(text.slice(sizeAt, sizeAt + 32))?.[1] ?? 0);
  const size = Math.max(previousSize, ...entries.map((n) => n + 1));
  const dictionary = tail[1]!.replace(/\/Size\s+\d+/, `/Size ${size}`);
  const fixed = `${update.slice(0, tail.index)}trailer\n<<${dictionary}>>\nstartxref\n${xrefAt}\n%%EOF`;
  return Buffer.concat([pdf.subarray(0, xrefAt), Buffer.from(fixed, "latin1")]);
}
