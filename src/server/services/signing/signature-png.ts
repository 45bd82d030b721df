import { MAX_SIGNATURE_BYTES, MIN_SIGNATURE_BYTES } from "../../../shared/schemas/signing.js";
import { AppError } from "../../errors.js";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PREFIX = "data:image/png;base64,";
/** A drawn signature is a canvas export: anything outside this is not one (DPR up to 4 × 280×120 and a little). */
export const SIGNATURE_MIN_PX = 50;
export const SIGNATURE_MAX_PX = 4000;

/**
 * The bytes of a drawn signature, after checking they are a real PNG of sane size: the 8-byte
 * signature, an IHDR chunk first with width/height in range, and a byte size between the limits.
 * Anything else is SIGNING_SIGNATURE_REQUIRED ('Por favor, assine no campo acima').
 */
export function decodeSignaturePng(dataUrl: string): Buffer {
  if (!dataUrl.startsWith(PREFIX)) throw new AppError("SIGNING_SIGNATURE_REQUIRED");
  const bytes = Buffer.from(dataUrl.slice(PREFIX.length), "base64");
  if (bytes.length < MIN_SIGNATURE_BYTES || bytes.length > MAX_SIGNATURE_BYTES)
    throw new AppError("SIGNING_SIGNATURE_REQUIRED");
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw new AppError("SIGNING_SIGNATURE_REQUIRED");
  // First chunk: length (4) = 13, type (4) = IHDR, then width (4) and height (4), big-endian.
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString("latin1", 12, 16) !== "IHDR")
    throw new AppError("SIGNING_SIGNATURE_REQUIRED");
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const sane = (n: number) => n >= SIGNATURE_MIN_PX && n <= SIGNATURE_MAX_PX;
  if (!sane(width) || !sane(height)) throw new AppError("SIGNING_SIGNATURE_REQUIRED");
  if (!bytes.includes("IEND", 33, "latin1")) throw new AppError("SIGNING_SIGNATURE_REQUIRED");
  return bytes;
}

export function pngDataUrl(bytes: Uint8Array): string {
  return PREFIX + Buffer.from(bytes).toString("base64");
}
