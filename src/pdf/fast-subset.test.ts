/**
 * The subset font written from the font's template (fast-subset.ts) must be fontkit's encoding
 * byte for byte, for any set of glyphs of the four Roboto fonts (Latin, Greek, Cyrillic,
 * compound glyphs, the whole font), and a font whose template cannot be trusted keeps fontkit's.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { originals } from "./fast-paths.js";
import { encodeSubsetFast, readTemplate, type TtfSubsetLike } from "./fast-subset.js";
import { pdfEngine } from "./fonts.js";

const require = createRequire(import.meta.url);
const fromPdfmake = createRequire(require.resolve("pdfmake"));
const fontkit = createRequire(fromPdfmake.resolve("pdfkit"))("fontkit") as {
  create(bytes: Buffer): TtfSubsetLike["font"] & { glyphForCodePoint(c: number): { id: number } };
};
const fontsDir = path.join(path.dirname(require.resolve("pdfmake/package.json")), "fonts", "Roboto");
const FILES = ["Roboto-Regular.ttf", "Roboto-Medium.ttf", "Roboto-Italic.ttf", "Roboto-MediumItalic.ttf"];

/** fontkit's own encoder (the original TTFSubset.encode, before the fast paths). */
const fontkitEncode = (subset: TtfSubsetLike) => originals.encodeSubset!.call(subset as never);

function subsetOf(font: TtfSubsetLike["font"], glyphIds: Iterable<number>): TtfSubsetLike {
  const subset = font.createSubset();
  for (const id of glyphIds) subset.includeGlyph(id);
  return subset;
}

/** A small deterministic generator (the same glyph sets every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

beforeAll(() => {
  pdfEngine(); // installs the fast paths (originals.encodeSubset is fontkit's encode)
});

describe("subset fonts written from the font's template", () => {
  it.each(FILES)(
    "%s: the same bytes as fontkit for Latin, Greek, Cyrillic, compound glyphs and the whole font",
    (file) => {
      // A font object of its own: its template is made here, from fontkit's encoder.
      const font = fontkit.create(readFileSync(path.join(fontsDir, file)));
      let fontkitCalls = 0;
      const counted = (subset: TtfSubsetLike) => {
        fontkitCalls++;
        return fontkitEncode(subset);
      };
      const text = "Termo de Consentimento — “Ação” ÁÉÍÓÚ àâêô ç ãõ ü ª º § • Ωμέγα ΑΒΓ жизнь Щука ﬁ 0123456789";
      const next = random(file.length);
      const sets: number[][] = [
        [...text].map((ch) => font.glyphForCodePoint(ch.codePointAt(0)!).id),
        Array.from({ length: 300 }, () => Math.floor(next() * font.numGlyphs)),
        Array.from({ length: font.numGlyphs }, (_, id) => font.numGlyphs - 1 - id),
        [],
      ];
      const written: Uint8Array[] = [];
      for (const glyphs of sets) written.push(encodeSubsetFast(subsetOf(font, glyphs), counted));
      // fontkit encoded the first subset (the template, checked); the others were written from it.
      expect(fontkitCalls).toBe(1);
      sets.forEach((glyphs, i) => {
        const expected = Buffer.from(fontkitEncode(subsetOf(font, glyphs)));
        expect(Buffer.from(written[i]!).equals(expected), `set ${i}`).toBe(true);
      });
    },
  );

  it("makes the template without creating glyphs no text has used (their code points feed ToUnicode)", () => {
    const font = fontkit.create(readFileSync(path.join(fontsDir, FILES[1]!))) as TtfSubsetLike["font"] & {
      glyphForCodePoint(c: number): { id: number };
      layout(text: string): { glyphs: Array<{ id: number; codePoints: number[] }> };
    };
    const a = font.glyphForCodePoint("a".codePointAt(0)!).id;
    encodeSubsetFast(subsetOf(font, [a]), fontkitEncode);
    encodeSubsetFast(subsetOf(font, [a]), fontkitEncode);
    // Letters first drawn after the template was made still carry their own code points.
    const run = font.layout("Zé Ωж");
    expect(run.glyphs.map((glyph) => glyph.codePoints)).toEqual([[0x5a], [0xe9], [0x20], [0x3a9], [0x436]]);
  });

  it("keeps fontkit's encoder for a font whose template does not check out", () => {
    const font = fontkit.create(readFileSync(path.join(fontsDir, FILES[0]!)));
    // An encoder whose output the template reader cannot trust (a table out of place).
    let calls = 0;
    const odd = (subset: TtfSubsetLike) => {
      calls++;
      const bytes = Buffer.from(fontkitEncode(subset));
      bytes.writeUInt32BE(bytes.readUInt32BE(12 + 8) + 2, 12 + 8); // first table's offset moved
      return bytes;
    };
    const glyphs = [36, 37, 38, 200];
    encodeSubsetFast(subsetOf(font, glyphs), odd);
    const out = encodeSubsetFast(subsetOf(font, glyphs), odd);
    expect(calls).toBe(2);
    expect(Buffer.from(out).equals(odd(subsetOf(font, glyphs)))).toBe(true);
  });

  it("reads only files laid out as fontkit writes them", () => {
    const font = fontkit.create(readFileSync(path.join(fontsDir, FILES[0]!)));
    const bytes = Buffer.from(fontkitEncode(subsetOf(font, [36, 37])));
    expect(readTemplate(bytes)?.tags).toEqual(["head", "hhea", "loca", "maxp", "cvt ", "prep", "glyf", "hmtx", "fpgm"]);
    const withChecksum = Buffer.from(bytes);
    withChecksum.writeUInt32BE(1, 12 + 4);
    expect(readTemplate(withChecksum)).toBeNull();
    expect(readTemplate(bytes.subarray(0, bytes.length - 1))).toBeNull();
  });
});
