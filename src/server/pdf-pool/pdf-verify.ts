/** The verification a PDF thread runs (pdf-tasks.ts `verify`, decision 049). */
import { type VerifySignedPdfOptions, verifySignedPdfWithSeal } from "../services/sealing/verify-signed-pdf.js";
import type { PdfVerification } from "./pdf-tasks.js";

/** The evidence report and the seal's check, the seal read once. */
export function verifyPdfBytes(pdf: Buffer, options: VerifySignedPdfOptions): PdfVerification {
  const { report, seal } = verifySignedPdfWithSeal(pdf, options);
  return { report, signature: seal };
}
