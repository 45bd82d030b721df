/**
 * The PDF engine, set up once per process: pdfmake (on PDFKit) with Roboto, the family pdfmake
 * itself ships in `pdfmake/fonts/Roboto` (Latin Extended: every Portuguese letter, º/ª, §, –, —,
 * “ ” and •). No system font is used, so the output is the same on every machine.
 *
 * Work done once instead of per document (decision 005; it halves the render time):
 * - the four TTF files are read and parsed by fontkit once. pdfmake hands PDFKit a font as bytes
 *   and PDFKit parses those bytes for every document; we give pdfmake's in-memory file system a
 *   short marker instead of each TTF and register, through fontkit's public `registerFormat`, a
 *   "format" that recognises the marker and returns the already parsed font. PDFKit still makes a
 *   fresh subset per document (only the glyphs used are embedded).
 * - PDFKit shapes text word by word and caches each word's glyph run per document; the runs depend
 *   only on the font and the word, so the cache is shared by all documents (bounded; PDFKit only
 *   reads the runs: it copies a position before changing it).
 *
 * - the fast paths of decision 025 (src/pdf/fast-paths.ts) are installed here, once per thread.
 *
 * Resource policies deny every URL and every local path: content never names a font, image or
 * attachment by path or URL (signature images arrive as data URLs), so nothing a user types can
 * make the renderer read a file or open a connection.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { TCreatedPdf, TDocumentDefinitions } from "pdfmake/interfaces.js";
import { installFastPaths, type PdfLibraries } from "./fast-paths.js";

/** The font family name used in document definitions. */
export const PDF_FONT = "Roboto";

type FontStyle = "normal" | "bold" | "italics" | "bolditalics";

/** What we use of pdfmake's Node entry point (a CommonJS singleton). */
interface PdfMakeServer {
  virtualfs: { writeFileSync(name: string, content: Buffer): void };
  setFonts(fonts: Record<string, Record<FontStyle, string>>): void;
  setUrlAccessPolicy(callback: (url: string) => boolean): void;
  setLocalAccessPolicy(callback: (path: string) => boolean): void;
  createPdf(definition: TDocumentDefinitions, options?: Record<string, unknown>): TCreatedPdf;
}

/** What we use of fontkit (the copy PDFKit loads). */
interface Fontkit {
  create(buffer: Uint8Array): object;
  registerFormat(format: unknown): void;
}

/** pdfmake's PDFKit subclass: provideFont returns PDFKit's EmbeddedFont for a family/style. */
interface PdfmakeDocumentClass {
  prototype: {
    provideFont(this: unknown, family: string, bold: boolean, italics: boolean): { layoutCache?: object };
  };
}

const FILES: Record<FontStyle, string> = {
  normal: "Roboto-Regular.ttf",
  bold: "Roboto-Medium.ttf",
  italics: "Roboto-Italic.ttf",
  bolditalics: "Roboto-MediumItalic.ttf",
};

/** Marker bytes standing for a parsed font: "CSNTFONT" + style. Never a valid font file. */
const MARKER_PREFIX = "CSNTFONT";
/** Shared word caches are dropped when one holds more words than this (memory bound). */
const MAX_CACHED_WORDS = 50_000;

let engine: PdfMakeServer | undefined;

/** pdfmake, with the fonts loaded and network/disk access closed. Loads on the first call only. */
export function pdfEngine(): PdfMakeServer {
  if (engine) return engine;
  const require = createRequire(import.meta.url);
  const pdfmake = require("pdfmake") as PdfMakeServer;
  const pdfmakeDir = path.dirname(require.resolve("pdfmake/package.json"));
  // The fontkit that PDFKit itself requires (resolved from PDFKit's own location).
  const fromPdfmake = createRequire(path.join(pdfmakeDir, "package.json"));
  const fromPdfkit = createRequire(fromPdfmake.resolve("pdfkit"));
  const fontkit = fromPdfkit("fontkit") as Fontkit;

  const parsed = new Map<string, object>();
  for (const [style, file] of Object.entries(FILES) as Array<[FontStyle, string]>) {
    const marker = `${MARKER_PREFIX}${style}`;
    parsed.set(marker, fontkit.create(readFileSync(path.join(pdfmakeDir, "fonts", "Roboto", file))));
    pdfmake.virtualfs.writeFileSync(vfsName(style), Buffer.from(marker, "latin1"));
  }
  const markerOf = (bytes: Uint8Array): string | undefined => {
    if (bytes.length > 32) return undefined;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
    return text.startsWith(MARKER_PREFIX) ? text : undefined;
  };
  class PreparsedFont {
    static probe(bytes: Uint8Array): boolean {
      return markerOf(bytes) !== undefined && parsed.has(markerOf(bytes)!);
    }
    constructor(stream: { buffer: Uint8Array }) {
      const font = parsed.get(markerOf(stream.buffer) ?? "");
      if (!font) throw new Error("fonte pré-carregada desconhecida");
      // A constructor returning an object makes `new` yield that object: the parsed font.
      return font as PreparsedFont;
    }
  }
  fontkit.registerFormat(PreparsedFont);

  const documentClass = (require("pdfmake/js/PDFDocument.js") as { default: PdfmakeDocumentClass }).default;
  const provideFont = documentClass.prototype.provideFont;
  const sharedCaches = new Map<string, object>();
  // pdfmake asks for the font of every word: the cache is wired once per document and style.
  const wired = new WeakSet<object>();
  let wirings = 0;
  documentClass.prototype.provideFont = function (family, bold, italics) {
    const font = provideFont.call(this, family, bold, italics);
    if (font.layoutCache !== undefined && !wired.has(font)) {
      wired.add(font);
      const key = `${family}:${bold ? "b" : ""}${italics ? "i" : ""}`;
      let cache = sharedCaches.get(key);
      if (cache === undefined || (++wirings % 64 === 0 && Object.keys(cache).length > MAX_CACHED_WORDS)) {
        cache = Object.create(null) as object;
        sharedCaches.set(key, cache);
      }
      font.layoutCache = cache;
    }
    return font;
  };

  pdfmake.setFonts({
    [PDF_FONT]: {
      normal: vfsName("normal"),
      bold: vfsName("bold"),
      italics: vfsName("italics"),
      bolditalics: vfsName("bolditalics"),
    },
  });
  const PDFKit = fromPdfmake("pdfkit") as PdfLibraries["PDFKitDocument"];
  const probe = new PDFKit({ autoFirstPage: false }) as unknown as { font(src: Buffer): { _font: object } };
  installFastPaths({
    StyleContextStack: (require("pdfmake/js/StyleContextStack.js") as { default: PdfLibraries["StyleContextStack"] })
      .default,
    TextInlines: (require("pdfmake/js/TextInlines.js") as { default: PdfLibraries["TextInlines"] }).default,
    Renderer: (require("pdfmake/js/Renderer.js") as { default: PdfLibraries["Renderer"] }).default,
    TextDecorator: (require("pdfmake/js/TextDecorator.js") as { default: PdfLibraries["TextDecorator"] }).default,
    TTFSubset: Object.getPrototypeOf(
      (parsed.get(`${MARKER_PREFIX}normal`) as { createSubset(): object }).createSubset(),
    ) as PdfLibraries["TTFSubset"],
    PDFKitDocument: PDFKit,
    EmbeddedFont: Object.getPrototypeOf(probe.font(Buffer.from(`${MARKER_PREFIX}normal`, "latin1"))._font) as object,
  });
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  engine = pdfmake;
  return engine;
}

/** Name of a font inside pdfmake's virtual file system. */
function vfsName(style: FontStyle): string {
  return `consentir-fonts/Roboto-${style}`;
}
