/**
 * A verifier that reads strangers' files must stay bounded (decision 049): each of these used to
 * cost seconds to hours of CPU or gigabytes of memory; now each is refused after reading what it is.
 */
import { describe, expect, it } from "vitest";
import { embeddedFiles, MAX_EMBEDDED_FILE_BYTES } from "../../src/server/services/sealing/pdf-embedded-files.js";
import {
  checkAllPdfSignatures,
  checkPdfSignature,
  MAX_DOCUMENT_TIMESTAMPS,
  MAX_PDF_SIGNATURES,
} from "../../src/server/services/sealing/verify-pdf-signature.js";
import { verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { deflateBomb, forgedXrefCount, manyByteRanges, pdfOf, repeatedStream } from "../fixtures/hostile-pdfs.js";

/** Runs `work` and says how long it took (ms). */
function timed<T>(work: () => T): { value: T | Error; ms: number } {
  const started = performance.now();
  let value: T | Error;
  try {
    value = work();
  } catch (error) {
    value = error as Error;
  }
  return { value, ms: performance.now() - started };
}

describe("hostile PDFs", () => {
  it(`document time-stamps are counted apart: archive revisions fit, more than ${MAX_DOCUMENT_TIMESTAMPS} are refused`, () => {
    // Twenty years of renewals (decision 064) are read, each checked (and failing as a forgery).
    const archive = checkAllPdfSignatures(manyByteRanges(20, 1024, "ETSI.RFC3161"));
    expect(archive.signatures).toHaveLength(20);
    expect(archive.signatures.every((s) => s.kind === "carimbo_documento")).toBe(true);
    const pdf = manyByteRanges(5_000, 1024 * 1024, "ETSI.RFC3161");
    const all = timed(() => checkAllPdfSignatures(pdf));
    expect(all.value).toMatchObject({
      valid: false,
      signatures: [],
      reason: `mais de ${MAX_DOCUMENT_TIMESTAMPS} carimbos do tempo do documento`,
    });
    expect(all.ms).toBeLessThan(1_000);
  });

  it("an xref count larger than the table is refused, not looped over", () => {
    const { value, ms } = timed(() => embeddedFiles(forgedXrefCount()));
    expect(value).toBeInstanceOf(Error);
    expect((value as Error).message).toBe("tabela xref malformada");
    expect(ms).toBeLessThan(1_000);
  });

  it(`more than ${MAX_PDF_SIGNATURES} signatures are refused before any range is copied`, () => {
    const pdf = manyByteRanges(5_000);
    const all = timed(() => checkAllPdfSignatures(pdf));
    expect(all.value).toMatchObject({
      valid: false,
      signatures: [],
      reason: `mais de ${MAX_PDF_SIGNATURES} assinaturas`,
    });
    expect(checkPdfSignature(pdf)).toMatchObject({ valid: false, reason: `mais de ${MAX_PDF_SIGNATURES} assinaturas` });
    expect(all.ms).toBeLessThan(1_000);
    // A few are still each checked (and fail as forgeries).
    const few = checkAllPdfSignatures(manyByteRanges(3, 1024));
    expect(few.signatures).toHaveLength(3);
    expect(few.valid).toBe(false);
  });

  it("a deflate bomb stops at the limit", () => {
    const pdf = deflateBomb(MAX_EMBEDDED_FILE_BYTES + 1024 * 1024);
    expect(pdf.length).toBeLessThan(100 * 1024);
    expect(() => embeddedFiles(pdf)).toThrow(/fluxo 5 ilegível ou grande demais/);
    // Below the limit the same file is read.
    expect(embeddedFiles(deflateBomb(1024))[0]).toMatchObject({ name: "evidencias.json" });
  });

  it("one stream named many times is read once, then refused", () => {
    expect(() => embeddedFiles(repeatedStream(500))).toThrow(/repete um fluxo já lido/);
    expect(embeddedFiles(repeatedStream(1)).map((file) => file.name)).toEqual(["anexo-0.json"]);
  });

  it("the whole verifier answers each of them with a failed check, not an exception", () => {
    for (const pdf of [
      forgedXrefCount(),
      manyByteRanges(2_000),
      deflateBomb(),
      repeatedStream(200),
      pdfOf(["<< /Type /Catalog >>"]),
    ]) {
      const report = verifySignedPdf(pdf);
      expect(report.ok).toBe(false);
      expect(report.selo_ok).toBe(false);
    }
  });
});
