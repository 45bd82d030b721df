/** The verification a PDF thread runs (pdf-tasks.ts `verify`, decision 049). */
import { verifyPdfSignature } from "../services/sealing/verify-pdf-signature.js";
import { verifySignedPdf, type VerifySignedPdfOptions } from "../services/sealing/verify-signed-pdf.js";
import type { PdfVerification } from "./pdf-tasks.js";

export function verifyPdfBytes(pdf: Buffer, options: VerifySignedPdfOptions): PdfVerification {
  return { report: verifySignedPdf(pdf, options), signature: verifyPdfSignature(pdf) };
}
