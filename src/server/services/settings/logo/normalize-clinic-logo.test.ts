import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { LOGO_MAX_BYTES } from "../../../../shared/clinic-logo.js";
import { normalizeClinicLogo } from "./normalize-clinic-logo.js";

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function transparentPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 120, b: 90, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

/** The same PNG with other dimensions written in its header (IHDR rewritten, CRC recomputed). */
async function declaredSize(png: Buffer, width: number, height: number): Promise<Buffer> {
  const out = Buffer.from(png);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  return (error as { code?: string } | null)?.code ?? "no error";
}

describe("normalizeClinicLogo", () => {
  it("re-encodes a transparent PNG as an opaque PNG on white, shrunk to fit 600 × 240", async () => {
    const logo = await normalizeClinicLogo(await transparentPng(1000, 500));
    expect(logo.png.subarray(0, 8)).toEqual(PNG_MAGIC);
    expect([logo.width, logo.height]).toEqual([480, 240]);
    expect(logo.formatoOriginal).toBe("png");
    const meta = await sharp(logo.png).metadata();
    expect(meta.channels).toBe(3);
    expect(meta.hasAlpha).toBe(false);
    // Half-transparent green over white: lighter than the green itself.
    const { data } = await sharp(logo.png).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(100);
    expect(logo.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps a small image at its size and drops a JPEG's metadata", async () => {
    const jpeg = await sharp({ create: { width: 120, height: 60, channels: 3, background: "#123456" } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: "Clínica Exemplo", Artist: "Dra. Fulana" } } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const logo = await normalizeClinicLogo(jpeg);
    expect([logo.width, logo.height, logo.formatoOriginal]).toEqual([120, 60, "jpeg"]);
    const meta = await sharp(logo.png).metadata();
    expect(meta.format).toBe("png");
    expect(meta.exif).toBeUndefined();
    expect(logo.png.includes(Buffer.from("Fulana"))).toBe(false);
  });

  it("rasterises an SVG: scripts and outside references do not survive, a small drawing is drawn large", async () => {
    const svg = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="40">` +
        `<script>alert("x")</script><image xlink:href="file:///etc/passwd" width="10" height="10"/>` +
        `<image href="http://127.0.0.1:9/x.png" width="10" height="10"/>` +
        `<rect width="100" height="40" fill="#0a7"/><a href="javascript:alert(1)"><text x="5" y="25">Clínica</text></a></svg>`,
    );
    const logo = await normalizeClinicLogo(svg);
    expect(logo.formatoOriginal).toBe("svg");
    expect(logo.png.subarray(0, 8)).toEqual(PNG_MAGIC);
    expect([logo.width, logo.height]).toEqual([600, 240]);
    expect(logo.png.includes(Buffer.from("script"))).toBe(false);
    expect(logo.png.includes(Buffer.from("javascript"))).toBe(false);
  });

  it("answers the same bytes with the same hash (content-addressed)", async () => {
    const png = await transparentPng(50, 20);
    const [a, b] = await Promise.all([normalizeClinicLogo(png), normalizeClinicLogo(png)]);
    expect(a.sha256).toBe(b.sha256);
    expect(a.png.equals(b.png)).toBe(true);
  });

  it("refuses what is not a PNG, JPEG or SVG, a broken file, an oversized file and a pixel bomb", async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } })
      .gif()
      .toBuffer();
    expect(await codeOf(normalizeClinicLogo(gif))).toBe("LOGO_UNSUPPORTED");
    expect(await codeOf(normalizeClinicLogo(Buffer.from("%PDF-1.7 not an image")))).toBe("LOGO_UNSUPPORTED");
    expect(await codeOf(normalizeClinicLogo(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'><rect")))).toBe(
      "LOGO_INVALID",
    );
    expect(await codeOf(normalizeClinicLogo(Buffer.alloc(0)))).toBe("LOGO_INVALID");
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#0a7" } })
      .png()
      .toBuffer();
    expect(await codeOf(normalizeClinicLogo(png.subarray(0, Math.floor(png.length / 2))))).toBe("LOGO_INVALID");
    expect(await codeOf(normalizeClinicLogo(Buffer.concat([png, Buffer.alloc(LOGO_MAX_BYTES)])))).toBe(
      "LOGO_TOO_LARGE",
    );
    // 20000 × 20000 declared in a tiny file: refused before decoding.
    const bomb = await declaredSize(
      await sharp({ create: { width: 10, height: 10, channels: 3, background: "#000" } })
        .png()
        .toBuffer(),
      20000,
      20000,
    );
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(20000);
    expect(bomb.length).toBeLessThan(LOGO_MAX_BYTES);
    expect(await codeOf(normalizeClinicLogo(bomb))).toBe("LOGO_TOO_MANY_PIXELS");
  });

  it("draws a large declared SVG at a smaller density instead of refusing it", async () => {
    const svg = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="12000" height="6000"><rect width="12000" height="6000" fill="#036"/></svg>`,
    );
    const logo = await normalizeClinicLogo(svg);
    expect([logo.width, logo.height]).toEqual([480, 240]);
  });
});
