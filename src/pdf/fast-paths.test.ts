/**
 * The fast paths (decision 025) must not change what a PDF shows, the text a reader extracts or
 * the fonts it embeds. Each document is drawn with them on and off and compared:
 * - every drawing operation of every page, with the graphics state it runs in (font, size, text
 *   matrix, glyphs, colour, opacity, transformation): only repeated state operators may go;
 * - every other object of the uncompressed file (fonts, widths, ToUnicode maps, images, files);
 * - word boxes (pdftotext -bbox) and pixels (pdftoppm) of the compressed files.
 * And the patched library code must be the code the patches were written for.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import QRCode from "qrcode";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { formattedDocumentInput, sampleDocumentInput, sampleEvidence } from "../../tests/unit/pdf/fixtures.js";
import { QR_OPTIONS } from "../server/services/finalize/final-pdf-input.js";
import {
  DRAFT_WATERMARK,
  documentDefinition,
  type DocumentPdfInput,
  type DocumentPdfSignature,
} from "./document-pdf.js";
import { mirrored, originals, setFastPaths } from "./fast-paths.js";
import { opaqueOnWhite } from "./opaque-png.js";
import { pdfEngine } from "./fonts.js";
import { sampleSignaturePng } from "./sample-signature-png.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "consentir-fast-paths-"));
  pdfEngine();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => setFastPaths(true));

async function render(input: DocumentPdfInput, fast: boolean, compress: boolean): Promise<Buffer> {
  setFastPaths(fast);
  try {
    return Buffer.from(
      await pdfEngine()
        .createPdf({ ...documentDefinition(input), compress })
        .getBuffer(),
    );
  } finally {
    setFastPaths(true);
  }
}

let counter = 0;
function save(pdf: Buffer): string {
  const file = path.join(dir, `doc-${++counter}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

/** The objects of an uncompressed PDFKit file by number, and which ones are page contents. */
function objects(pdf: Buffer): { bodies: Map<number, string>; contents: Set<number> } {
  const text = pdf.toString("latin1");
  const bodies = new Map<number, string>();
  for (const match of text.matchAll(/(?:^|\n)(\d+) 0 obj\n([\s\S]*?)\nendobj/g))
    bodies.set(Number(match[1]), match[2]!);
  const contents = new Set<number>();
  for (const body of bodies.values()) {
    if (/\/Type \/Page\n/.test(body)) contents.add(Number(/\/Contents (\d+) 0 R/.exec(body)![1]));
  }
  return { bodies, contents };
}

/**
 * Each painting operator of a content stream with the state it paints in. PDFKit writes one
 * operator per line, so the stream is read line by line: state operators update the state,
 * painting operators (text, paths, images) are recorded with it. An `f` with no path paints
 * nothing (pdfmake writes one before every word) and is not recorded.
 */
function drawing(stream: string): string[] {
  const out: string[] = [];
  let state = { gs: "", cs: "", color: "", font: "", ctm: "", lineWidth: "", stroke: "" };
  const stack: (typeof state)[] = [];
  let tm = "";
  let path: string[] = [];
  for (const line of stream.split("\n")) {
    const op = line.slice(line.lastIndexOf(" ") + 1);
    const args = line.slice(0, Math.max(0, line.lastIndexOf(" ")));
    switch (op) {
      case "q":
        stack.push({ ...state });
        break;
      case "Q":
        state = stack.pop()!;
        break;
      case "cm":
        state.ctm = `${state.ctm}|${args}`;
        break;
      case "gs":
        state.gs = args;
        break;
      case "cs":
        state.cs = args;
        break;
      case "scn":
        state.color = args;
        break;
      case "SCN":
        state.stroke = args;
        break;
      case "w":
        state.lineWidth = args;
        break;
      case "Tf":
        state.font = args;
        break;
      case "Tm":
        tm = args;
        break;
      case "BT":
      case "ET":
        break;
      case "TJ":
      case "Tj":
        out.push(`text ${JSON.stringify(state)} ${tm} ${args}`);
        break;
      case "m":
      case "l":
      case "c":
      case "v":
      case "y":
      case "re":
      case "h":
        path.push(line);
        break;
      case "f":
      case "f*":
      case "S":
      case "B":
      case "b":
      case "n":
      case "W":
        if (path.length > 0) out.push(`paint ${op} ${JSON.stringify(state)} ${path.join(";")}`);
        if (op !== "W") path = [];
        break;
      default:
        out.push(`${line} ${JSON.stringify(state)}`);
    }
  }
  return out;
}

function streamText(body: string): string {
  const at = body.indexOf("\nstream\n");
  return at < 0 ? "" : body.slice(at + "\nstream\n".length, body.lastIndexOf("\nendstream"));
}

function pixels(file: string, resolution: number): Buffer[] {
  const prefix = `${file}-r${resolution}`;
  execFileSync("pdftoppm", ["-r", String(resolution), "-gray", file, prefix]);
  const base = path.basename(prefix);
  return readdirSync(dir)
    .filter((name) => name.startsWith(`${base}-`) && name.endsWith(".pgm"))
    .sort()
    .map((name) => readFileSync(path.join(dir, name)));
}

function readFileSafe(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

const words = (file: string) => execFileSync("pdftotext", ["-bbox", file, "-"], { encoding: "utf8" });

const SIGNED_AT = new Date("2025-03-08T13:20:41Z");
function signer(imagePng: Buffer | null, nome = "João Sebastião Gonçalves"): DocumentPdfSignature {
  return {
    nome,
    cpf: "52998224725",
    email: "joao.goncalves@example.com.br",
    telefone: "11987654321",
    assinou_em: SIGNED_AT,
    metodo: "eletronica",
    imagePng,
    ip: "203.0.113.7",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)",
  };
}

async function finalInput(signatures: DocumentPdfSignature[]): Promise<DocumentPdfInput> {
  const plain = sampleDocumentInput();
  const code = "7K2M9QX4TB";
  const url = `https://consentir.exemplo.com.br/verificar/${code}`;
  const qrPngDataUrl = await QRCode.toDataURL(url, QR_OPTIONS);
  const { registry, attachments } = sampleEvidence(
    plain,
    { verificationCode: code, verificationUrl: url, qrPngDataUrl },
    { commonName: "Selo", fingerprintSha256: "ab".repeat(32) },
  );
  return { ...plain, signatures, registry, attachments };
}

describe("PDF fast paths — the library code they were written for", () => {
  it("runs on pdfmake 0.3.11, PDFKit 0.19.1 and fontkit 2.0.4, whose patched and mirrored functions are unchanged", () => {
    const require = createRequire(import.meta.url);
    // The package.json above each module's entry file (fontkit's "exports" hide its package.json).
    const version = (from: NodeJS.Require, name: string) => {
      for (let at = path.dirname(from.resolve(name)); at !== path.dirname(at); at = path.dirname(at)) {
        const manifest = JSON.parse(readFileSafe(path.join(at, "package.json")) ?? "{}") as {
          name?: string;
          version?: string;
        };
        if (manifest.name === name) return manifest.version;
      }
      return undefined;
    };
    const fromPdfmake = createRequire(require.resolve("pdfmake"));
    const fromPdfkit = createRequire(fromPdfmake.resolve("pdfkit"));
    // An upgrade must re-check every fast path against the new code, then update these pins.
    expect(version(require, "pdfmake")).toBe("0.3.11");
    expect(version(fromPdfmake, "pdfkit")).toBe("0.19.1");
    expect(version(fromPdfkit, "fontkit")).toBe("2.0.4");
    const hashes = Object.fromEntries(
      Object.entries({ ...originals, ...mirrored }).map(([name, fn]) => {
        expect(typeof fn, name).toBe("function");
        return [name, createHash("sha256").update(String(fn)).digest("hex").slice(0, 16)];
      }),
    );
    expect(hashes).toEqual({
      getStyleProperty: "ca42470130b7e9d1",
      getProperty: "1f44d5be2de5a5d4",
      measure: "cb17af19531a9de1",
      renderLine: "b71f57566c6b6c5f",
      widthOfString: "0dc66ac40029d181",
      addGlyph: "625b34b9ae3d4053",
      encodeSubset: "7e64d77ad1ba59de",
      write: "d908ca396fbfefdf",
      finalize: "8af9e473a0841475",
      _fragment: "3582fda36bf1094e",
      _line: "1350fa53f5f53331",
      encode: "8829b1a80749bb7b",
      layout: "1bf021e3cd3ce4ae",
      layoutCached: "71aacd96de20a733",
    });
  });
});

describe("PDF fast paths — the same document with and without them", () => {
  const cases: Array<[string, () => Promise<DocumentPdfInput>]> = [
    ["the sample TCLE", async () => sampleDocumentInput()],
    ["a draft (watermark)", async () => sampleDocumentInput({ watermark: DRAFT_WATERMARK })],
    [
      "formatted sections (bold, italic, bold italic, bullet and numbered lists; decision 034)",
      async () => formattedDocumentInput(),
    ],
    [
      "a clinic with a logo in the header",
      async () => {
        const input = sampleDocumentInput();
        const logo = opaqueOnWhite(sampleSignaturePng({ seed: 7 }));
        return {
          ...input,
          clinic: {
            ...input.clinic,
            logo: { pngDataUrl: `data:image/png;base64,${logo.toString("base64")}`, width: 560, height: 240 },
          },
        };
      },
    ],
    [
      "the final PDF without a drawn signature (registry, QR code, files)",
      () => finalInput([signer(null), signer(null, "Márcia Conceição Araújo")]),
    ],
    [
      "odd content (markup, placeholders, no physician, an empty section)",
      async () => {
        const input = sampleDocumentInput({ physician: null });
        input.model = {
          ...input.model,
          introduction: [
            { kind: "text", text: "<b>não é negrito</b>   espaços   repetidos\tcom tab" },
            { kind: "missing", name: "paciente_nome" },
          ],
          sections: [
            {
              id: "extra",
              type: "paragraph",
              title: "",
              paragraphs: [[{ kind: "text", text: "Ação — “aspas” • ªº § ﬁ ligadura? AVATAR Tá" }]],
            },
            ...input.model.sections,
          ],
        };
        return input;
      },
    ],
    [
      "letters outside Latin, combining marks (glyph offsets) and a character the font lacks",
      async () => {
        const input = sampleDocumentInput();
        const text = "Ωμέγα ΑΒΓ жизнь Щука x\u0301 q\u0303 w\u0309 ₢ ₿ — e de o a de x\u0301 жизнь";
        input.model = {
          ...input.model,
          introduction: [{ kind: "text", text }],
          sections: [
            { id: "extra", type: "paragraph", title: "Ωμέγα", paragraphs: [[{ kind: "text", text }]] },
            ...input.model.sections,
          ],
        };
        return input;
      },
    ],
  ];

  it.each(cases)("%s: same drawing operations, same other objects, same words and pixels", async (_name, make) => {
    const input = await make();
    const [slowRaw, fastRaw] = [await render(input, false, false), await render(input, true, false)];
    const slow = objects(slowRaw);
    const fast = objects(fastRaw);
    expect([...fast.bodies.keys()]).toEqual([...slow.bodies.keys()]);
    expect([...fast.contents]).toEqual([...slow.contents]);
    for (const [id, body] of slow.bodies) {
      if (slow.contents.has(id)) {
        const before = drawing(streamText(body));
        expect(before.filter((op) => op.startsWith("text ")).length).toBeGreaterThan(0);
        expect(drawing(streamText(fast.bodies.get(id)!))).toEqual(before);
      } else {
        expect(fast.bodies.get(id), `object ${id}`).toBe(body);
      }
    }
    // Fewer operators for the same drawing.
    expect(fastRaw.length).toBeLessThan(slowRaw.length);

    const slowFile = save(await render(input, false, true));
    const fastFile = save(await render(input, true, true));
    expect(words(fastFile)).toBe(words(slowFile));
    const before = pixels(slowFile, 72);
    const after = pixels(fastFile, 72);
    expect(after.length).toBe(before.length);
    after.forEach((page, i) => expect(page.equals(before[i]!), `page ${i + 1}`).toBe(true));
  });

  it("embeds a drawn signature (RGBA) composited on white, without a soft mask, drawn the same", async () => {
    const input = await finalInput([signer(sampleSignaturePng())]);
    const slowFile = save(await render(input, false, true));
    const fastFile = save(await render(input, true, true));
    const images = (file: string) =>
      execFileSync("pdfimages", ["-list", file], { encoding: "utf8" }).trim().split("\n").slice(2);
    expect(images(slowFile).some((line) => /\bsmask\b/.test(line))).toBe(true);
    expect(images(fastFile).some((line) => /\bsmask\b/.test(line))).toBe(false);
    expect(images(fastFile).filter((line) => /\bimage\b/.test(line))).toHaveLength(2); // signature + QR code
    expect(words(fastFile)).toBe(words(slowFile));
    // At the image's own resolution (560 px in 150 pt = 268.8 dpi) the pixels agree to ±1 of
    // 255 (rounding of the compositing); scaled, poppler's filter may darken opaque white by 1.
    const page = 4;
    const crop = (file: string) => {
      const prefix = path.join(dir, `crop-${++counter}`);
      execFileSync("pdftoppm", [
        "-r",
        "268.8",
        "-f",
        String(page),
        "-l",
        String(page),
        "-gray",
        "-x",
        "150",
        "-y",
        "380",
        "-W",
        "650",
        "-H",
        "320",
        file,
        prefix,
      ]);
      return readFileSync(
        readdirSync(dir)
          .filter((n) => n.startsWith(path.basename(prefix)))
          .map((n) => path.join(dir, n))[0]!,
      );
    };
    const [a, b] = [crop(slowFile), crop(fastFile)];
    expect(b.length).toBe(a.length);
    let ink = 0;
    let off = 0;
    for (let i = 20; i < a.length; i++) {
      if (a[i]! < 128) ink++;
      const d = Math.abs(a[i]! - b[i]!);
      expect(d).toBeLessThanOrEqual(1);
      if (d) off++;
    }
    expect(ink).toBeGreaterThan(2000); // the strokes are inside the compared area
    expect(off).toBeLessThan(ink / 10);
  });
});
