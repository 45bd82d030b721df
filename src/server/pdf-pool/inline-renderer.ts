import { renderDocumentPdf } from "../../pdf/document-pdf.js";
import { sealPdf } from "../services/sealing/seal-pdf.js";
import type { PdfRenderer } from "./pdf-pool.js";
import { verifyPdfBytes } from "./pdf-verify.js";

/**
 * The same work as the pool, in the calling thread: for code that runs without an app (service
 * tests that build a JobContext by hand, scripts). The server always uses the pool.
 */
export const inlinePdfRenderer: PdfRenderer = {
  render: (input) => renderDocumentPdf(input),
  renderAndSeal: async (input, seal, sealOptions) => sealPdf(await renderDocumentPdf(input), seal, sealOptions),
  renderAndSign: async (input, signatures) => {
    let pdf = await renderDocumentPdf(input);
    for (const signature of signatures) pdf = await sealPdf(pdf, signature.material, signature.options);
    return pdf;
  },
  verify: async (pdf, options) => verifyPdfBytes(pdf, options),
};
