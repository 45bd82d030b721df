/**
 * fontkit's TTFSubset.encode (fontkit 2.0.4) writes the subset font through restructure's generic
 * encoder: it sizes every table, then writes it field by field (a Struct, a LazyArray of metrics,
 * an Array of glyph buffers…), which is most of what embedding a font costs per document. The file
 * is simple: a 12-byte header, one 16-byte entry per table (tag, checksum 0, offset, length), then
 * the tables back to back in that order: head, hhea, loca, maxp, cvt , prep, glyf, hmtx, fpgm.
 * Only loca, glyf, hmtx and two counts (hhea.numberOfMetrics, maxp.numGlyphs) depend on the
 * subset; the rest is the font's own tables, the same for every document.
 *
 * So the first subset of each parsed font is fontkit's own encoding, read back as a template (the
 * header, the table order, the constant tables) and accepted only if re-writing that subset from
 * it gives fontkit's bytes exactly; every later subset is written directly into one buffer. A font
 * whose template does not check out keeps fontkit's encoder. The bytes are identical
 * (fast-subset.test.ts; fast-paths.test.ts compares every embedded font).
 */

/** What encodeSubset needs of a fontkit TTFSubset after its glyphs were added. */
export interface EncodedSubsetParts {
  glyf: Uint8Array[];
  loca: { offsets: number[]; version: number };
  hmtx: { metrics: Array<{ advance: number; bearing: number }> };
}

interface Template {
  /** The 12-byte header (tag "true", table count, search fields): the same for every subset. */
  header: Uint8Array;
  /** Table tags in file order. */
  tags: string[];
  /** The tables whose bytes do not depend on the subset, by tag (hhea and maxp are patched). */
  constant: Map<string, Uint8Array>;
}

/** The tables whose bytes depend on the subset. */
const VARIABLE = new Set(["loca", "glyf", "hmtx"]);
/** hhea.numberOfMetrics and maxp.numGlyphs: uint16 at these offsets (OpenType spec). */
const HHEA_NUMBER_OF_METRICS = 34;
const MAXP_NUM_GLYPHS = 4;

/** Reads fontkit's encoded subset back: header, table order and each table's bytes. */
export function readTemplate(encoded: Uint8Array): (Template & { tables: Map<string, Uint8Array> }) | null {
  const view = new DataView(encoded.buffer, encoded.byteOffset, encoded.byteLength);
  if (encoded.length < 12) return null;
  const count = view.getUint16(4);
  let expected = 12 + 16 * count;
  if (encoded.length < expected) return null;
  const tags: string[] = [];
  const tables = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i;
    const tag = String.fromCharCode(encoded[at]!, encoded[at + 1]!, encoded[at + 2]!, encoded[at + 3]!);
    const checksum = view.getUint32(at + 4);
    const offset = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    // Back to back, in entry order, checksums left at 0: what this encoder writes.
    if (checksum !== 0 || offset !== expected || tables.has(tag)) return null;
    tags.push(tag);
    tables.set(tag, encoded.slice(offset, offset + length));
    expected += length;
  }
  if (expected !== encoded.length) return null;
  for (const tag of ["loca", "glyf", "hmtx", "hhea", "maxp"]) if (!tables.has(tag)) return null;
  const constant = new Map([...tables].filter(([tag]) => !VARIABLE.has(tag)));
  return { header: encoded.slice(0, 12), tags, constant, tables };
}

/** The subset font file, byte for byte what fontkit's encode writes for the same glyphs. */
export function writeSubset(template: Template, parts: EncodedSubsetParts): Buffer {
  const glyphCount = parts.glyf.length;
  const shortLoca = parts.loca.version === 0;
  let glyfLength = 0;
  for (const glyph of parts.glyf) glyfLength += glyph.length;
  const lengthOf = (tag: string): number => {
    if (tag === "loca") return parts.loca.offsets.length * (shortLoca ? 2 : 4);
    if (tag === "glyf") return glyfLength;
    if (tag === "hmtx") return parts.hmtx.metrics.length * 4;
    return template.constant.get(tag)!.length;
  };
  const count = template.tags.length;
  let total = 12 + 16 * count;
  for (const tag of template.tags) total += lengthOf(tag);
  const out = Buffer.alloc(total);
  // DataView writes wrap out-of-range values as restructure's encoder (a DataView too) does.
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  out.set(template.header, 0);
  let offset = 12 + 16 * count;
  for (let i = 0; i < count; i++) {
    const tag = template.tags[i]!;
    const length = lengthOf(tag);
    const entry = 12 + 16 * i;
    out.write(tag, entry, 4, "latin1");
    view.setUint32(entry + 8, offset);
    view.setUint32(entry + 12, length);
    if (tag === "loca") {
      let at = offset;
      for (const value of parts.loca.offsets) {
        if (shortLoca) {
          view.setUint16(at, value >>> 1);
          at += 2;
        } else {
          view.setUint32(at, value);
          at += 4;
        }
      }
    } else if (tag === "glyf") {
      let at = offset;
      for (const glyph of parts.glyf) {
        out.set(glyph, at);
        at += glyph.length;
      }
    } else if (tag === "hmtx") {
      let at = offset;
      for (const metric of parts.hmtx.metrics) {
        view.setUint16(at, metric.advance);
        view.setInt16(at + 2, metric.bearing);
        at += 4;
      }
    } else {
      out.set(template.constant.get(tag)!, offset);
      if (tag === "hhea") view.setUint16(offset + HHEA_NUMBER_OF_METRICS, parts.hmtx.metrics.length);
      if (tag === "maxp") view.setUint16(offset + MAXP_NUM_GLYPHS, glyphCount);
    }
    offset += length;
  }
  return out;
}

/** A fontkit subset as encodeSubsetFast drives it. */
export interface TtfSubsetLike extends EncodedSubsetParts {
  font: { loca: { version: number }; numGlyphs: number; createSubset(): TtfSubsetLike };
  glyphs: number[];
  offset: number;
  includeGlyph(id: number): number;
  _addGlyph(gid: number): number;
  encode(): Uint8Array;
}

const templates = new WeakMap<object, Template | null>();

/**
 * The subset font for a document. The first subset of each font is fontkit's own encoding, read
 * back as the font's template and checked: re-written from the template it must come out byte
 * for byte (and its two counts where the template patches them), or the font keeps fontkit's
 * encoder (null). Later subsets are written from the template.
 *
 * The template is made from a real subset, not from a probe of extra glyphs: fontkit keeps every
 * glyph object it creates, with the code points of its first use, and those become the PDF's
 * ToUnicode entries; a probe would create glyphs no text has used yet, with none.
 */
export function encodeSubsetFast(
  subset: TtfSubsetLike,
  fontkitEncode: (subset: TtfSubsetLike) => Uint8Array,
): Uint8Array {
  const font = subset.font;
  const template = templates.get(font);
  if (template === undefined) {
    const expected = fontkitEncode(subset);
    templates.set(font, checkedTemplate(expected, subset));
    return expected;
  }
  return template ? collectAndWrite(template, subset) : fontkitEncode(subset);
}

function checkedTemplate(expected: Uint8Array, subset: TtfSubsetLike): Template | null {
  const read = readTemplate(expected);
  if (!read) return null;
  const hhea = read.tables.get("hhea")!;
  const maxp = read.tables.get("maxp")!;
  if (hhea.length < HHEA_NUMBER_OF_METRICS + 2 || maxp.length < MAXP_NUM_GLYPHS + 2) return null;
  const count = subset.glyf.length;
  const u16 = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
  if (u16(hhea, HHEA_NUMBER_OF_METRICS) !== count || u16(maxp, MAXP_NUM_GLYPHS) !== count) return null;
  return Buffer.from(collectAndWrite(read, subset)).equals(Buffer.from(expected)) ? read : null;
}

function collectAndWrite(template: Template, subset: TtfSubsetLike): Buffer {
  subset.glyf = [];
  subset.offset = 0;
  subset.loca = { offsets: [], version: subset.font.loca.version };
  subset.hmtx = { metrics: [] };
  (subset.hmtx as { bearings?: number[] }).bearings = [];
  let i = 0;
  while (i < subset.glyphs.length) subset._addGlyph(subset.glyphs[i++]!);
  subset.loca.offsets.push(subset.offset);
  return writeSubset(template, subset);
}
