/**
 * ICP-Brasil AD-RB signatures (decision 020): the CMS has exactly the four signed attributes and
 * the whole chain, readers accept it, its dictionary text is readable, and a professional's
 * signature followed by the seal gives two signatures that both verify.
 */
import { describe, expect, it } from "vitest";
import { renderDocumentPdf } from "../../../pdf/document-pdf.js";
import { sampleDocumentInput } from "../../../../tests/unit/pdf/fixtures.js";
import { testPki } from "../../../../tests/fixtures/icp-brasil.js";
import {
  hasTool,
  materialOf,
  run,
  scratchDir,
  signatureAt,
  writeScratch,
} from "../../../../tests/helpers/pdf-signatures.js";
import { OID } from "./der.js";
import { ICP_BRASIL_PADES_POLICY_NAMES } from "../../../shared/verification/policy-promise.js";
import {
  ICP_BRASIL_PADES_POLICIES,
  PADES_AD_RB_V1_3,
  PADES_AD_RC_V1_4,
  PADES_AD_RT_V1_3,
  policyForSigning,
} from "./icp-brasil-policies.js";
import { generateSealCertificate, SEAL_SUBJECT_CN } from "./seal-certificate.js";
import { sealPdf, signatureSpace } from "./seal-pdf.js";
import { signatureLevel } from "./signature-level.js";
import { checkAllPdfSignatures, checkPdfSignature, verifyPdfSignature } from "./verify-pdf-signature.js";

const pki = testPki();
const professional = materialOf(pki.ecpf, [pki.ac, pki.root]);
const clinic = materialOf(pki.ecnpj, [pki.ac, pki.root]);
const instance = generateSealCertificate().material;
const adRb = policyForSigning(PADES_AD_RB_V1_3);
const pdfPromise = renderDocumentPdf(sampleDocumentInput());

function flipInFirstRange(pdf: Buffer, signature = 0): Buffer {
  const { range } = signatureAt(pdf, signature);
  const tampered = Buffer.from(pdf);
  const at = Math.floor(range[1]! / 2);
  tampered[at] = tampered[at]! ^ 0x01;
  return tampered;
}

describe("AD-RB signature with the professional's e-CPF and its chain", () => {
  it("writes exactly contentType, messageDigest, signingCertificateV2 (with issuerSerial) and sigPolicyId, sha256WithRSA and three certificates", async () => {
    const signed = await sealPdf(await pdfPromise, professional, { policy: adRb });
    const dir = scratchDir();
    const cmsFile = writeScratch(dir, "assinatura.p7s", signatureAt(signed, 0).cms);
    const printed = run("openssl", ["cms", "-cmsout", "-print", "-inform", "DER", "-in", cmsFile]);
    expect(printed.status).toBe(0);
    const attributes = [...printed.output.matchAll(/^\s+object: (.+)$/gm)]
      .map((m) => m[1]!)
      .filter((name) => !name.startsWith("X509v3"));
    expect(attributes).toEqual([
      "contentType (1.2.840.113549.1.9.3)",
      "messageDigest (1.2.840.113549.1.9.4)",
      "id-smime-aa-ets-sigPolicyId (1.2.840.113549.1.9.16.2.15)",
      "id-smime-aa-signingCertificateV2 (1.2.840.113549.1.9.16.2.47)",
    ]);
    expect(printed.output).not.toContain("signingTime");
    expect(printed.output).toContain(":2.16.76.1.7.1.11.1.3");
    expect(printed.output.replace(/[\s:]/g, "").toLowerCase()).toContain(
      "23e4be4b9b362172e4ebb0e72b86a133ece5aad843d8651c6e38a0ba3f08fc60",
    );
    expect(printed.output).toContain(":http://politicas.icpbrasil.gov.br/PA_PAdES_AD_RB_v1_3.der");
    // signerInfos' signatureAlgorithm (the last "algorithm:" after the attributes).
    const signerPart = printed.output.slice(printed.output.indexOf("signerInfos:"));
    expect(signerPart).toMatch(
      /signatureAlgorithm:\s+algorithm: sha256WithRSAEncryption \(1\.2\.840\.113549\.1\.1\.11\)/,
    );
    expect(printed.output.match(/cert_info:/g)).toHaveLength(3);
    // ESSCertIDv2 carries issuerSerial: a directoryName ([4]) with the AC's name.
    const essCertId = signerPart.slice(
      signerPart.indexOf("signingCertificateV2"),
      signerPart.indexOf("signatureAlgorithm:"),
    );
    expect(essCertId).toMatch(/cont \[\s*4\s*\]/);
    expect(essCertId).toContain("AC Teste Consentir v1");

    // OpenSSL's own CMS verification: chain to the test root, ESS signing certificate, signature.
    const content = writeScratch(dir, "conteudo.bin", signatureAt(signed, 0).signed);
    const root = writeScratch(dir, "raiz.pem", pki.root.pem);
    const verified = run("openssl", [
      "cms",
      "-verify",
      "-binary",
      "-inform",
      "DER",
      "-in",
      cmsFile,
      "-content",
      content,
      "-CAfile",
      root,
      "-purpose",
      "any",
      "-out",
      "/dev/null",
    ]);
    expect(verified.output).toContain("Verification successful");
  });

  it("pdfsig accepts it, and one flipped byte in the signed range breaks it", async () => {
    const signed = await sealPdf(await pdfPromise, professional, { policy: adRb });
    const dir = scratchDir();
    const ok = run("pdfsig", [writeScratch(dir, "assinado.pdf", signed)]).output;
    expect(ok).toContain("Signature Validation: Signature is Valid.");
    expect(ok).toContain("MARIA DA SILVA TESTE:52998224725");
    expect(ok).toContain("ETSI.CAdES.detached");
    const broken = run("pdfsig", [writeScratch(dir, "alterado.pdf", flipInFirstRange(signed))]).output;
    expect(broken).not.toContain("Signature is Valid.");
    expect(checkAllPdfSignatures(flipInFirstRange(signed))).toMatchObject({
      valid: false,
      signatures: [{ digestOk: false, reason: "o resumo do conteúdo não confere" }],
    });
  });

  it("the verifier reports certificate, chain, policy and no signingTime", async () => {
    const signed = await sealPdf(await pdfPromise, professional, { policy: adRb });
    const all = checkAllPdfSignatures(signed);
    expect(all.valid).toBe(true);
    const [only] = all.signatures;
    expect(only).toMatchObject({
      valid: true,
      digestOk: true,
      signatureOk: true,
      coversWholeFile: true,
      endsAtEof: true,
      signerCommonName: "MARIA DA SILVA TESTE:52998224725",
      signatureAlgorithmOid: OID.sha256WithRSAEncryption,
      policyOid: PADES_AD_RB_V1_3.oid,
      hasSigningTime: false,
      timestamp: null,
    });
    expect(only!.certificateDer!.equals(pki.ecpf.der)).toBe(true);
    expect(only!.chainDer.map((c) => c.toString("hex"))).toEqual([
      pki.ac.der.toString("hex"),
      pki.root.der.toString("hex"),
    ]);
    expect(only!.policyHash!.equals(PADES_AD_RB_V1_3.hash)).toBe(true);
    expect([...only!.signedAttributes].sort()).toEqual(
      [OID.contentType, OID.messageDigest, OID.signingCertificateV2, OID.sigPolicyId].sort(),
    );
  });
});

describe("signature space", () => {
  it("is sized from the real CMS: small for the instance seal, larger for a chain, plus a budget for a token", () => {
    const seal = signatureSpace(instance);
    const a1 = signatureSpace(professional, { policy: adRb });
    expect(seal).toBeLessThanOrEqual(2048);
    expect(a1).toBeGreaterThan(seal);
    expect(a1).toBeLessThan(4096 + 1024);
    expect(signatureSpace(professional, { policy: adRb, timestamp: true })).toBeGreaterThanOrEqual(a1 + 8192);
  });

  it("fits: the CMS written is never larger than the space and not much smaller", async () => {
    const signed = await sealPdf(await pdfPromise, professional, { policy: adRb });
    const { cms, range } = signatureAt(signed, 0);
    const space = (range[2]! - range[1]! - 2) / 2;
    expect(space).toBe(signatureSpace(professional, { policy: adRb }));
    expect(space - cms.length).toBeGreaterThanOrEqual(0);
    expect(space - cms.length).toBeLessThan(512 + 64);
  });
});

describe("text strings of the signature dictionary", () => {
  it("writes a non-ASCII /Name as UTF-16BE with a byte-order mark, and readers decode it", async () => {
    const sealed = await sealPdf(await pdfPromise, instance, { location: "São Paulo" });
    const text = sealed.toString("latin1");
    const utf16 = (value: string) => `<FEFF${Buffer.from(value, "utf16le").swap16().toString("hex").toUpperCase()}>`;
    expect(text).toContain(`/Name ${utf16(SEAL_SUBJECT_CN)}`);
    expect(text).toContain(`/Location ${utf16("São Paulo")}`);
    expect(text).toContain("/Reason (Documento assinado eletronicamente)");
    // The UTF-8-of-UTF-16 garbling (BOM FE FF written as C3 BE C3 BF) is gone.
    expect(sealed.includes(Buffer.from([0xc3, 0xbe, 0xc3, 0xbf]))).toBe(false);
    expect(verifyPdfSignature(sealed)).toEqual({ valid: true, signerCommonName: SEAL_SUBJECT_CN });
  });

  it("qpdf reads the dictionary's /Name and /Location back as text, and finds no structural error", async () => {
    // The tests' system tools (README; .ci/run installs them): poppler-utils, openssl, qpdf.
    expect(hasTool("qpdf"), "instale o qpdf (apt-get install -y qpdf)").toBe(true);
    const sealed = await sealPdf(await sealPdf(await pdfPromise, professional, { policy: adRb }), instance, {
      location: "São Paulo",
    });
    const file = writeScratch(scratchDir(), "duas.pdf", sealed);
    const json = run("qpdf", ["--json=2", "--json-key=qpdf", file]).output;
    expect(json).toContain(`"/Name": "u:${SEAL_SUBJECT_CN}"`);
    expect(json).toContain('"/Location": "u:São Paulo"');
    const check = run("qpdf", ["--check", file]);
    expect(check.output).toContain("No syntax or stream encoding errors found");
    expect(check.output).not.toContain("WARNING");
  });
});

describe("two signatures: the professional's AD-RB, then the seal", () => {
  it("the seal is an incremental update: the signed file is kept byte for byte, and both verify (pdfsig and ours)", async () => {
    const first = await sealPdf(await pdfPromise, professional, { policy: adRb });
    const both = await sealPdf(first, instance);
    expect(both.subarray(0, first.length).equals(first)).toBe(true);

    const all = checkAllPdfSignatures(both);
    expect(all).toMatchObject({ valid: true });
    expect(
      all.signatures.map((s) => [s.signerCommonName, s.valid, s.coversWholeFile, s.endsAtEof, s.policyOid]),
    ).toEqual([
      ["MARIA DA SILVA TESTE:52998224725", true, false, true, PADES_AD_RB_V1_3.oid],
      [SEAL_SUBJECT_CN, true, true, true, null],
    ]);
    expect(all.signatures[0]!.byteRange[2] + all.signatures[0]!.byteRange[3]).toBe(first.length);
    // The current callers still see the last signature (the seal).
    expect(checkPdfSignature(both)).toMatchObject({ valid: true, signerCommonName: SEAL_SUBJECT_CN });

    const report = run("pdfsig", [writeScratch(scratchDir(), "duas.pdf", both)]).output;
    expect(report.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(2);
    expect(report).toContain("Signature #2");
    expect(report).toContain("Total document signed");
  });

  it("three signatures (e-CPF, e-CNPJ, instance seal) all verify", async () => {
    const three = await sealPdf(
      await sealPdf(await sealPdf(await pdfPromise, professional, { policy: adRb }), clinic, { policy: adRb }),
      instance,
    );
    const all = checkAllPdfSignatures(three);
    expect(all.valid).toBe(true);
    expect(all.signatures.map((s) => s.signerCommonName)).toEqual([
      "MARIA DA SILVA TESTE:52998224725",
      "CLINICA TESTE LTDA:11222333000181",
      SEAL_SUBJECT_CN,
    ]);
    const report = run("pdfsig", [writeScratch(scratchDir(), "tres.pdf", three)]).output;
    expect(report.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(3);
  });

  it("a byte changed in the first revision breaks the first signature and the seal; bytes appended break the whole", async () => {
    const both = await sealPdf(await sealPdf(await pdfPromise, professional, { policy: adRb }), instance);
    const tampered = checkAllPdfSignatures(flipInFirstRange(both, 0));
    expect(tampered.valid).toBe(false);
    expect(tampered.signatures.map((s) => s.valid)).toEqual([false, false]);

    const appended = checkAllPdfSignatures(Buffer.concat([both, Buffer.from("\n1 0 obj\n<< >>\nendobj\n")]));
    expect(appended.valid).toBe(false);
    expect(appended.reason).toContain("assinatura 2: atualização incremental posterior ao selo");
    expect(appended.signatures.map((s) => s.valid)).toEqual([true, true]);
  });

  it("a PDF without signatures, or not a PDF, is reported invalid", () => {
    expect(checkAllPdfSignatures(Buffer.from("%PDF-1.3\n%%EOF\n"))).toMatchObject({
      valid: false,
      signatures: [],
      reason: "sem /ByteRange",
    });
    expect(checkAllPdfSignatures(Buffer.from("não é um PDF"))).toMatchObject({ valid: false });
  });
});

describe("signatureLevel", () => {
  it("AD-RB without a time-stamp, AD-RT with an accredited one, B-T (keeping AD-RB) with another, B-B/B-T without a policy", () => {
    expect(signatureLevel({ policy: adRb, timestamp: false })).toMatchObject({
      level: "AD-RB",
      policy: { oid: PADES_AD_RB_V1_3.oid },
      timestamp: false,
    });
    const rt = signatureLevel({ policy: adRb, timestamp: true, tsaAccredited: true });
    expect(rt).toMatchObject({
      level: "AD-RT",
      policy: { oid: PADES_AD_RT_V1_3.oid, uri: PADES_AD_RT_V1_3.uri },
      timestamp: true,
    });
    expect(rt.policy!.hash.equals(PADES_AD_RT_V1_3.hash)).toBe(true);
    expect(signatureLevel({ policy: adRb, timestamp: true, tsaAccredited: false })).toMatchObject({
      level: "PAdES B-T",
      policy: { oid: PADES_AD_RB_V1_3.oid },
    });
    // An AD-RT declaration without an accredited token would not hold: it falls back to AD-RB.
    expect(signatureLevel({ policy: policyForSigning(PADES_AD_RT_V1_3), timestamp: false })).toMatchObject({
      level: "AD-RB",
      policy: { oid: PADES_AD_RB_V1_3.oid },
    });
    expect(signatureLevel({ policy: null, timestamp: false })).toMatchObject({ level: "PAdES B-B", policy: undefined });
    expect(
      signatureLevel({ policy: null, timestamp: true, tsaAccredited: true, revocationEmbedded: true }),
    ).toMatchObject({
      level: "PAdES B-T",
      policy: undefined,
    });
  });

  it("AD-RC only with an accredited time-stamp and the signer's lists read: else AD-RT or AD-RB, never a promise the file cannot keep", () => {
    const rc = signatureLevel({ policy: adRb, timestamp: true, tsaAccredited: true, revocationEmbedded: true });
    expect(rc).toMatchObject({
      level: "AD-RC",
      policy: { oid: PADES_AD_RC_V1_4.oid, uri: "http://politicas.icpbrasil.gov.br/PA_PAdES_AD_RC_v1_4.der" },
      timestamp: true,
    });
    expect(rc.policy!.hash.toString("hex")).toBe("712f18a9f0163c1e90da6ff0b7165543378a18a0f06d3cb21668067cac229bd2");
    expect(
      signatureLevel({ policy: adRb, timestamp: true, tsaAccredited: true, revocationEmbedded: false }).level,
    ).toBe("AD-RT");
    expect(
      signatureLevel({ policy: adRb, timestamp: true, tsaAccredited: false, revocationEmbedded: true }),
    ).toMatchObject({
      level: "PAdES B-T",
      policy: { oid: PADES_AD_RB_V1_3.oid },
    });
    expect(signatureLevel({ policy: adRb, timestamp: false, revocationEmbedded: true }).level).toBe("AD-RB");
    expect(signatureLevel({ policy: undefined, timestamp: true })).toMatchObject({
      level: "PAdES B-T",
      policy: undefined,
    });
  });
});

describe("policy names", () => {
  it("the browser verifier's table names every policy of the server's, with the same kind", () => {
    expect(ICP_BRASIL_PADES_POLICY_NAMES).toEqual(
      ICP_BRASIL_PADES_POLICIES.map((p) => ({ oid: p.oid, name: p.name, kind: p.kind })),
    );
  });
});
