import { deflateSync, inflateSync } from "node:zlib";
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { opaqueOnWhite, PNG_SIGNATURE, pngChunk } from "./opaque-png.js";
import { sampleSignaturePng } from "./sample-signature-png.js";

/** An 8-bit PNG of one row per `rows` entry, each row filtered with `filter`. */
function png(colorType: number, width: number, rows: number[][], filter = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(rows.length, 4);
  ihdr[8] = 8;
  ihdr[9] = colorType;
  const raw = Buffer.concat(rows.map((row) => Buffer.from([filter, ...row])));
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(raw)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

function decoded(out: Buffer): { colorType: number; width: number; samples: number[] } {
  const width = out.readUInt32BE(16);
  const colorType = out[25]!;
  const idatLength = out.readUInt32BE(33);
  const raw = inflateSync(out.subarray(41, 41 + idatLength));
  const stride = width * (colorType === 2 ? 3 : 1) + 1;
  const samples: number[] = [];
  for (let at = 0; at < raw.length; at += stride) {
    expect(raw[at]).toBe(0);
    samples.push(...raw.subarray(at + 1, at + stride));
  }
  return { colorType, width, samples };
}

describe("opaqueOnWhite", () => {
  it("composites black ink on white as 8-bit grey: transparent is white, opaque is black, partial coverage in between", () => {
    const out = opaqueOnWhite(png(6, 4, [[0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 128, 0, 0, 0, 64]]));
    expect(decoded(out)).toEqual({ colorType: 0, width: 4, samples: [255, 0, 127, 191] });
  });

  it("keeps colour as RGB, composited per channel", () => {
    const out = opaqueOnWhite(png(6, 2, [[255, 0, 0, 255, 0, 0, 255, 128]]));
    expect(decoded(out)).toEqual({ colorType: 2, width: 2, samples: [255, 0, 0, 127, 127, 255] });
  });

  it("undoes every PNG row filter the same way (grey + alpha, two rows)", () => {
    const rows = [
      [10, 200, 20, 100, 30, 0],
      [40, 255, 50, 50, 60, 10],
    ];
    const expected = decoded(opaqueOnWhite(png(4, 3, rows))).samples;
    // Filter 1 (Sub) of the same pixels: each byte minus the one bpp to its left.
    const sub = rows.map((row) => row.map((v, i) => (i >= 2 ? (v - row[i - 2]! + 256) & 0xff : v)));
    expect(decoded(opaqueOnWhite(png(4, 3, sub, 1))).samples).toEqual(expected);
    // Filter 2 (Up): minus the byte above.
    const up = rows.map((row, y) => row.map((v, i) => (y > 0 ? (v - rows[y - 1]![i]! + 256) & 0xff : v)));
    expect(decoded(opaqueOnWhite(png(4, 3, up, 2))).samples).toEqual(expected);
  });

  it("returns anything else unchanged: opaque, palette or grey PNGs, malformed bytes", async () => {
    const qr = await QRCode.toBuffer("x", { rendererOpts: { colorType: 0 } } as QRCode.QRCodeToBufferOptions);
    expect(opaqueOnWhite(qr)).toBe(qr);
    const rgb = png(2, 1, [[1, 2, 3]]);
    expect(opaqueOnWhite(rgb)).toBe(rgb);
    const junk = Buffer.from("not a png at all, not even close");
    expect(opaqueOnWhite(junk)).toBe(junk);
    const truncated = sampleSignaturePng().subarray(0, 60);
    expect(opaqueOnWhite(truncated)).toBe(truncated);
  });

  it("turns the drawn-signature sample (560×240 RGBA) into a smaller grey PNG", () => {
    const signature = sampleSignaturePng();
    const out = opaqueOnWhite(signature);
    const { colorType, width, samples } = decoded(out);
    expect([colorType, width, samples.length]).toEqual([0, 560, 560 * 240]);
    expect(samples.filter((v) => v === 0).length).toBeGreaterThan(1000);
    expect(samples.filter((v) => v === 255).length).toBeGreaterThan(100_000);
  });
});
