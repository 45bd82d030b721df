import { createHash } from "node:crypto";
import sharp from "sharp";
import { LOGO_MAX_BYTES, LOGO_MAX_HEIGHT, LOGO_MAX_WIDTH } from "../../../../shared/clinic-logo.js";
import { AppError } from "../../../errors.js";

/** Larger images are refused before decoding (a 1 MB file can declare a billion pixels). */
export const LOGO_MAX_INPUT_PIXELS = 40_000_000;
const ACCEPTED_FORMATS = new Set(["png", "jpeg", "svg"]);

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
  if (format !== "svg" && metadata.width * metadata.height > LOGO_MAX_INPUT_PIXELS) throw new AppError("LOGO_TOO_MANY_PIXELS");
  // A small SVG is drawn at a density that gives the largest size we keep, not at 72 dpi.
  const density = format === "svg" ? svgDensity(metadata.width, metadata.height) : undefined;
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: LOGO_MAX_INPUT_PIXELS, failOn: "error", ...(density ? { density } : {}) })
      .rotate()
      .flatten({ background: "#ffffff" })
      .resize({ width: LOGO_MAX_WIDTH, height: LOGO_MAX_HEIGHT, fit: "inside", withoutEnlargement: true })
      .png({ compressionLevel: 9 })
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
    throw new AppError("LOGO_INVALID");
  }
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
