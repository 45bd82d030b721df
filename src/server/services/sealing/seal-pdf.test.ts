import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderDocumentPdf } from "../../../pdf/document-pdf.js";
import { sampleDocumentInput } from "../../../../tests/unit/pdf/fixtures.js";
import { cadesDetached } from "./cades-signer.js";
import { generateSealCertificate, SEAL_SUBJECT_CN, unlockP12 } from "./seal-certificate.js";
import { sealPdf } from "./seal-pdf.js";
import { verifyPdfSignature } from "./verify-pdf-signature.js";

const seal = generateSealCertificate();

/** A tiny one-page PDF with a classic xref table, as pdfmake writes them. */
function tinyPdf(): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << >> >>",
    "<< /Length 20 >>\nstream\n0 0 m 100 100 l S\n\nendstream",
  ];
  let body = "%PDF-1.3\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** The index of a byte inside the first signed range (before /Contents), away from the header. */
function insideSignedRange(pdf: Buffer): number {
  const match = /\/ByteRange\s*\[\s*0\s+(\d+)/.exec(pdf.toString("latin1"));
  return Math.floor(Number(match![1]) / 2);
}

describe("seal certificate", () => {
  it("is self-signed RSA-2048 with the instance subject, ten years, and survives the PKCS#12 round trip", () => {
    expect(seal.material.commonName).toBe(SEAL_SUBJECT_CN);
    expect(seal.material.subject).toContain("O=Consentir");
    const years = (seal.material.notAfter.getTime() - Date.now()) / (365.25 * 24 * 3600 * 1000);
    expect(years).toBeGreaterThan(9.9);
    expect(seal.material.privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const opened = unlockP12(seal.p12, seal.passphrase);
    expect(opened.fingerprintSha256).toBe(seal.material.fingerprintSha256);
    expect(() => unlockP12(seal.p12, "senha errada")).toThrow();
  });
});

describe("PAdES seal and its verification", () => {
  it("signs a small PDF and the signature verifies", async () => {
    const sealed = await sealPdf(tinyPdf(), seal.material, { signingTime: new Date("2026-01-02T03:04:05Z") });
    const text = sealed.toString("latin1");
    expect(text).toContain("/SubFilter /ETSI.CAdES.detached");
    expect(text).toContain("/M (D:20260102030405Z)");
    expect(verifyPdfSignature(sealed)).toEqual({ valid: true, signerCommonName: SEAL_SUBJECT_CN });
  });

  it("flipping one byte inside the signed range breaks it", async () => {
    const sealed = await sealPdf(tinyPdf(), seal.material);
    const tampered = Buffer.from(sealed);
    const at = insideSignedRange(tampered);
    tampered[at] = tampered[at]! ^ 0x01;
    const check = verifyPdfSignature(tampered);
    expect(check.valid).toBe(false);
    expect(check.reason).toBe("o resumo do conteúdo não confere");
  });

  it("a signature by another key, or no signature at all, is not valid", async () => {
    const other = generateSealCertificate();
    const sealed = await sealPdf(tinyPdf(), seal.material);
    // Swap in a CMS made by another key over the same bytes but naming our certificate's attributes.
    const contents = /\/Contents\s*<([0-9a-fA-F]+)>/.exec(sealed.toString("latin1"))!;
    const signedRange = Buffer.concat([
      sealed.subarray(0, contents.index + contents[0].indexOf("<")),
      sealed.subarray(contents.index + contents[0].length),
    ]);
    const forged = cadesDetached(
      { ...other.material, certificateDer: seal.material.certificateDer },
      signedRange,
    ).toString("hex");
    const swapped = Buffer.from(
      sealed.toString("latin1").replace(contents[1]!, forged.padEnd(contents[1]!.length, "0")),
      "latin1",
    );
    expect(swapped.length).toBe(sealed.length);
    expect(verifyPdfSignature(swapped)).toMatchObject({ valid: false, reason: "assinatura RSA não confere" });
    expect(verifyPdfSignature(tinyPdf())).toMatchObject({ valid: false, signerCommonName: null });
    expect(verifyPdfSignature(Buffer.from("não é um PDF"))).toMatchObject({ valid: false });
  });

  it("poppler's pdfsig accepts the seal on a rendered document", async () => {
    const sealed = await sealPdf(await renderDocumentPdf(sampleDocumentInput()), seal.material);
    expect(verifyPdfSignature(sealed).valid).toBe(true);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "consentir-seal-")), "selado.pdf");
    writeFileSync(file, sealed);
    let output: string;
    try {
      output = execFileSync("pdfsig", [file], { encoding: "utf8" });
    } catch (error) {
      // pdfsig exits non-zero when the certificate is not trusted (self-signed); the report is on stdout.
      output = String((error as { stdout?: string }).stdout ?? "");
    }
    expect(output).toContain("Signature Validation: Signature is Valid.");
    expect(output).toContain("ETSI.CAdES.detached");
  });
});
