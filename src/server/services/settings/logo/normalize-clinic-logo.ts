import { createHash } from "node:crypto";
import sharp from "sharp";
import { LOGO_MAX_BYTES, LOGO_MAX_HEIGHT, LOGO_MAX_WIDTH } from "../../../../shared/clinic-logo.js";
import { AppError } from "../../../errors.js";
import { createWorkGate, GateFull } from "../../../lib/work-gate.js";
import { drawSvgInChild, SvgDrawFailed, SvgDrawTimeout } from "./draw-svg.js";

/** Larger images are refused before decoding (a 1 MB file can declare a billion pixels). */
export const LOGO_MAX_INPUT_PIXELS = 40_000_000;
const ACCEPTED_FORMATS = new Set(["png", "jpeg", "svg"]);
/**
 * An SVG is drawn in a child process killed after this long (draw-svg.ts): a few kB of SVG can
 * chain thousands of filters and take minutes (decision 049). PNG and JPEG decode in-process
 * (bounded by the pixel limit), with libvips' own timeout as a backstop.
 */
export const LOGO_RENDER_TIMEOUT_S = 5;
/** One logo drawn at a time per process, a few waiting; past that, SERVER_BUSY. */
const drawing = createWorkGate({ running: 1, waiting: 4 });

export interface NormalizedLogo {
  png: Buffer;
  sha256: string;
  width: number;
  height: number;
  formatoOriginal: "png" | "jpeg" | "svg";
}

/**
 * The uploaded bytes → the only form the server keeps and serves: decoded by libvips (sharp),
 * an SVG rasterised by librsvg (no scripts, no external files or URLs), JPEG orientation applied,
 * flattened on white (the PDF and the signing page draw it on white; an opaque PNG is also the
 * cheap path in the PDF writer), shrunk to fit LOGO_MAX_WIDTH × LOGO_MAX_HEIGHT, re-encoded as a
 * PNG without metadata. The format is read from the bytes, never from the Content-Type.
 */
export async function normalizeClinicLogo(bytes: Buffer): Promise<NormalizedLogo> {
  try {
    return await drawing.run(() => normalize(bytes));
  } catch (error) {
    if (!(error instanceof GateFull)) throw error;
    const busy = new AppError(
      "SERVER_BUSY",
      "O servidor está ocupado processando outras imagens. Tente novamente em alguns segundos.",
    );
    busy.retryAfterSeconds = LOGO_RENDER_TIMEOUT_S;
    throw busy;
  }
}

async function normalize(bytes: Buffer): Promise<NormalizedLogo> {
  if (bytes.length === 0) throw new AppError("LOGO_INVALID");
  if (bytes.length > LOGO_MAX_BYTES) throw new AppError("LOGO_TOO_LARGE");
  // The header only: the pixel limit is checked below, after the format is known.
  const metadata = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw new AppError(looksLikeText(bytes) ? "LOGO_INVALID" : "LOGO_UNSUPPORTED");
    });
  const format = metadata.format;
  if (!format || !ACCEPTED_FORMATS.has(format)) throw new AppError("LOGO_UNSUPPORTED");
  if (!metadata.width || !metadata.height) throw new AppError("LOGO_INVALID");
  // An SVG is drawn at a density that fits the kept size, whatever size it declares.
  if (format !== "svg" && metadata.width * metadata.height > LOGO_MAX_INPUT_PIXELS)
    throw new AppError("LOGO_TOO_MANY_PIXELS");
  // A small SVG is drawn at a density that gives the largest size we keep, not at 72 dpi.
  const density = format === "svg" ? svgDensity(metadata.width, metadata.height) : undefined;
  if (density) return drawSvg(bytes, density);
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: LOGO_MAX_INPUT_PIXELS, failOn: "error" })
      .rotate()
      .flatten({ background: "#ffffff" })
      .resize({ width: LOGO_MAX_WIDTH, height: LOGO_MAX_HEIGHT, fit: "inside", withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .timeout({ seconds: LOGO_RENDER_TIMEOUT_S })
      .toBuffer({ resolveWithObject: true });
    return {
      png: data,
      sha256: createHash("sha256").update(data).digest("hex"),
      width: info.width,
      height: info.height,
      formatoOriginal: format as NormalizedLogo["formatoOriginal"],
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw new AppError("LOGO_TOO_MANY_PIXELS");
    if (error instanceof Error && /^timeout: /i.test(error.message)) throw new AppError("LOGO_TOO_COMPLEX");
    throw new AppError("LOGO_INVALID");
  }
}

async function drawSvg(bytes: Buffer, density: number): Promise<NormalizedLogo> {
  let png: Buffer;
  try {
    png = await drawSvgInChild(bytes, {
      density,
      width: LOGO_MAX_WIDTH,
      height: LOGO_MAX_HEIGHT,
      limitInputPixels: LOGO_MAX_INPUT_PIXELS,
      timeoutMs: LOGO_RENDER_TIMEOUT_S * 1000,
    });
  } catch (error) {
    if (error instanceof SvgDrawTimeout) throw new AppError("LOGO_TOO_COMPLEX");
    if (error instanceof SvgDrawFailed && /pixel limit/i.test(error.detail)) throw new AppError("LOGO_TOO_MANY_PIXELS");
    throw new AppError("LOGO_INVALID");
  }
  const info = await sharp(png)
    .metadata()
    .catch(() => {
      throw new AppError("LOGO_INVALID");
    });
  if (info.format !== "png" || !info.width || !info.height) throw new AppError("LOGO_INVALID");
  return {
    png,
    sha256: createHash("sha256").update(png).digest("hex"),
    width: info.width,
    height: info.height,
    formatoOriginal: "svg",
  };
}

/** The density (dpi) at which an SVG of this declared size fills LOGO_MAX_WIDTH × LOGO_MAX_HEIGHT. */
function svgDensity(width: number, height: number): number {
  const scale = Math.min(LOGO_MAX_WIDTH / width, LOGO_MAX_HEIGHT / height);
  return Math.min(Math.max(72 * scale, 1), 2400);
}

/** A text file (an SVG that did not parse) is "invalid"; anything else unknown is an unsupported format. */
function looksLikeText(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 512).toString("utf8").trimStart();
  return head.startsWith("<");
}
