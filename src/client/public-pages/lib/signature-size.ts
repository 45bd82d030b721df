import { SIGNATURE_CANVAS } from "@shared/signing-rules";

/** Below this viewport width the page is a phone's (spec part 1: narrow-screen breakpoint 768 px). */
export const NARROW_VIEWPORT = 768;
/** On a phone the field grows with the screen up to this width (CSS px). */
export const MAX_PHONE_SIGNATURE_WIDTH = 480;
/** The field's frame: a 2 px dashed border on each side. */
export const SIGNATURE_FRAME = 4;

export interface SignatureSize {
  width: number;
  height: number;
}

/**
 * The drawing field's CSS size (spec part 1 §9: 280×120). On a wide screen it is exactly that; on
 * a phone it fills the width the form gives it (`available`, frame included), up to 480 px, in the
 * same 7:3 proportion, so the finger has room and the image prints in the PDF's box unchanged.
 * Never smaller than 280×120, even on a screen narrower than that.
 */
export function signatureFieldSize(available: number, viewportWidth: number): SignatureSize {
  const base = { width: SIGNATURE_CANVAS.width, height: SIGNATURE_CANVAS.height };
  if (!Number.isFinite(available) || !Number.isFinite(viewportWidth) || viewportWidth >= NARROW_VIEWPORT) return base;
  const width = Math.floor(Math.min(Math.max(available - SIGNATURE_FRAME, base.width), MAX_PHONE_SIGNATURE_WIDTH));
  return { width, height: Math.round((width * base.height) / base.width) };
}
