/**
 * The browser verifier (decision 077) said what `npm run verify` says about the embedded
 * evidence: from the attachments on, the same lines (audio, comprehension, reading, optional
 * consents, a refusal/revocation record's own), the same verdict on the content and the chain.
 */
import { expect } from "vitest";
import { type SignedPdfReport, verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { boundedInflate } from "../../src/shared/verification/inflate.js";
import { type BrowserReport, verifyPdfBytes } from "../../src/shared/verification/pdf-verifier.js";

/** The lines from the embedded files' check on (before it: the signatures, said in each one's words). */
export function evidenceLines(report: SignedPdfReport | BrowserReport): BrowserReport["linhas"] {
  const start = report.linhas.findIndex((l) => /^(Anexos |Não foi possível ler os anexos)/.test(l.text));
  expect(start, "the report has no attachments line").toBeGreaterThanOrEqual(0);
  return report.linhas.slice(start);
}

export async function expectBrowserParity(pdf: Uint8Array, cli: SignedPdfReport = verifySignedPdf(Buffer.from(pdf))) {
  const local = await verifyPdfBytes(pdf, { inflate: boundedInflate });
  expect(evidenceLines(local)).toEqual(evidenceLines(cli));
  expect([local.ok, local.selo_ok, local.conteudo_ok, local.cadeia_ok, local.eventos]).toEqual([
    cli.ok,
    cli.selo_ok,
    cli.conteudo_ok,
    cli.cadeia_ok,
    cli.eventos,
  ]);
  expect(local.registro?.tipo ?? null).toBe(cli.registro?.tipo ?? null);
  return local;
}
