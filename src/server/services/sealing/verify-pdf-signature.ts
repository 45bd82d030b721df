/**
 * Checks the PAdES signatures of a PDF the way a reader does, with node-forge's ASN.1 parser and
 * node:crypto (cms-reader.ts). For each /ByteRange [0 b c d]: the gap must be exactly the
 * /Contents hex string, /Contents holds a CMS SignedData with one SignerInfo, its messageDigest
 * equals the digest of the byte ranges and its signature over the signed attributes verifies with
 * the certificate the SignerInfo names. Only the last signature may (and must) cover the whole
 * file; an earlier one must cover a prefix ending exactly at an %%EOF: the revision it signed, to
 * which later signatures were appended as incremental updates.
 *
 * Certificate trust (chains, revocation, ICP-Brasil roots) is not judged here: the chain found in
 * the CMS is returned for whoever judges it.
 */
import { createHash } from "node:crypto";
import { readTimeStampToken } from "../timestamping/timestamp-token.js";
import {
  type CmsSignedData,
  type CmsSignerInfo,
  DIGESTS,
  derOf,
  oidOf,
  parseSignedData,
  verifySignerInfo,
  children,
  bytesOf,
} from "./cms-reader.js";
import { checkAfterSeal, type AfterSeal } from "./after-seal.js";
import { OID } from "./der.js";
import { certificateNames } from "./seal-certificate.js";
import { byteRanges, type FoundRange, rangeContents, tooMany } from "../../../shared/pdf-reader/signature-ranges.js";

export { MAX_DOCUMENT_TIMESTAMPS, MAX_PDF_SIGNATURES } from "../../../shared/pdf-reader/signature-ranges.js";

export interface PdfSignatureCheck {
  /** True when the CMS verifies over exactly the signed byte ranges. */
  valid: boolean;
  /** The signer certificate's CN when a CMS could be read. */
  signerCommonName: string | null;
  /** Why it is not valid (for logs and tests; never shown raw to the public). */
  reason?: string;
}

/** The signatureTimeStampToken of a signature, checked. */
export interface SignatureTimestampCheck {
  genTime: Date | null;
  /** The token verifies (its signature, with the authority's certificate inside) and its imprint is this signature's value. */
  valid: boolean;
  policyOid: string | null;
  tsaCommonName: string | null;
  reason?: string;
}

export interface PdfSignatureInfo {
  /** 0 = the first signature in the file. */
  index: number;
  /** A signature (CAdES), or a document time-stamp (/SubFilter /ETSI.RFC3161, decision 053). */
  kind: "assinatura" | "carimbo_documento";
  byteRange: [number, number, number, number];
  /** messageDigest equals the digest of the byte ranges. */
  digestOk: boolean;
  /** The signature over the signed attributes verifies with the signer certificate. */
  signatureOk: boolean;
  /** digestOk && signatureOk and the ranges are well formed. */
  valid: boolean;
  /** The ranges reach the end of the file (only the last signature may). */
  coversWholeFile: boolean;
  /** The signed prefix ends exactly at an %%EOF (a complete revision). */
  endsAtEof: boolean;
  signerCommonName: string | null;
  certificateDer?: Buffer;
  /** The other certificates in the CMS (the chain, as the signer sent it). */
  chainDer: Buffer[];
  signatureAlgorithmOid: string | null;
  /** OIDs of the signed attributes, in the order found. */
  signedAttributes: string[];
  policyOid: string | null;
  policyHash: Buffer | null;
  hasSigningTime: boolean;
  timestamp: SignatureTimestampCheck | null;
  reason?: string;
}

export interface AllPdfSignaturesCheck {
  /** Every signature valid, each one a revision, and after the seal only our DSS and document time-stamps. */
  valid: boolean;
  signatures: PdfSignatureInfo[];
  /** The seal: the last signature that is not a document time-stamp (-1: none). */
  sealIndex: number;
  /** What follows the seal's revision. */
  afterSeal: AfterSeal | null;
  reason?: string;
}

function invalid(reason: string, signerCommonName: string | null = null): PdfSignatureCheck {
  return { valid: false, signerCommonName, reason };
}

function emptyInfo(
  index: number,
  byteRange: PdfSignatureInfo["byteRange"],
  reason: string,
  kind: PdfSignatureInfo["kind"] = "assinatura",
): PdfSignatureInfo {
  return {
    index,
    kind,
    byteRange,
    digestOk: false,
    signatureOk: false,
    valid: false,
    coversWholeFile: false,
    endsAtEof: false,
    signerCommonName: null,
    chainDer: [],
    signatureAlgorithmOid: null,
    signedAttributes: [],
    policyOid: null,
    policyHash: null,
    hasSigningTime: false,
    timestamp: null,
    reason,
  };
}

function checkTimestamp(signerInfo: CmsSignerInfo): SignatureTimestampCheck | null {
  const attribute = signerInfo.unsignedAttributes.find((a) => a.type === OID.signatureTimeStampToken);
  const tokenNode = attribute?.values[0];
  if (!tokenNode) return null;
  try {
    const token = readTimeStampToken(derOf(tokenNode));
    const digest = DIGESTS[token.messageImprint.hashAlgorithmOid];
    const base = {
      genTime: token.genTime,
      policyOid: token.policyOid,
      tsaCommonName: token.tsaCertificateDer ? certificateNames(token.tsaCertificateDer).commonName || null : null,
    };
    if (!token.signatureValid) return { ...base, valid: false, reason: token.reason ?? "carimbo inválido" };
    // RFC 3161 appendix A: the token is over the hash of the SignerInfo's signature value.
    if (!digest || !createHash(digest).update(signerInfo.signature).digest().equals(token.messageImprint.hash)) {
      return { ...base, valid: false, reason: "o carimbo do tempo não é sobre esta assinatura" };
    }
    return { ...base, valid: true };
  } catch (error) {
    return {
      genTime: null,
      valid: false,
      policyOid: null,
      tsaCommonName: null,
      reason: `carimbo ilegível: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/**
 * A document time-stamp: its /Contents is a TimeStampToken whose imprint must be the hash of the
 * signed byte ranges (ETSI EN 319 142-1 §5.4.3).
 */
function checkDocumentTimestamp(info: PdfSignatureInfo, contents: Buffer, signed: Buffer): PdfSignatureInfo {
  try {
    const token = readTimeStampToken(contents);
    const digest = DIGESTS[token.messageImprint.hashAlgorithmOid];
    const tsaCommonName = token.tsaCertificateDer ? certificateNames(token.tsaCertificateDer).commonName || null : null;
    const imprintOk = !!digest && createHash(digest).update(signed).digest().equals(token.messageImprint.hash);
    const valid = token.signatureValid && imprintOk;
    const reason = !token.signatureValid
      ? (token.reason ?? "carimbo inválido")
      : imprintOk
        ? undefined
        : "o carimbo do documento não é sobre os bytes assinados";
    const result: PdfSignatureInfo = {
      ...info,
      digestOk: imprintOk,
      signatureOk: token.signatureValid,
      valid,
      signerCommonName: tsaCommonName,
      chainDer: [],
      policyOid: token.policyOid,
      timestamp: {
        genTime: token.genTime,
        valid,
        policyOid: token.policyOid,
        tsaCommonName,
        ...(reason ? { reason } : {}),
      },
    };
    if (token.tsaCertificateDer) result.certificateDer = token.tsaCertificateDer;
    if (reason) result.reason = reason;
    else delete result.reason;
    return result;
  } catch (error) {
    return {
      ...info,
      reason: `carimbo do documento ilegível: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** One /ByteRange: its ranges, its CMS and what they say. */
function checkOne(pdf: Buffer, text: string, index: number, found: FoundRange): PdfSignatureInfo {
  const { range, kind } = found;
  const [a, b, c, d] = range;
  const shape = rangeContents(text, pdf.length, range);
  if ("error" in shape) return emptyInfo(index, range, shape.error, kind);
  const { hex } = shape;
  const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  const info = emptyInfo(index, range, "", kind);
  info.coversWholeFile = shape.coversWholeFile;
  info.endsAtEof = shape.endsAtEof;
  if (kind === "carimbo_documento") return checkDocumentTimestamp(info, Buffer.from(hex, "hex"), signed);

  let signedData: CmsSignedData;
  try {
    signedData = parseSignedData(Buffer.from(hex, "hex"));
  } catch (error) {
    return {
      ...info,
      reason:
        error instanceof Error && error.message === "o conteúdo não é SignedData"
          ? "o /Contents não é SignedData"
          : `CMS ilegível: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const signerInfo = signedData.signerInfos[0];
  if (signedData.signerInfos.length !== 1 || !signerInfo) return { ...info, reason: "esperada uma assinatura no CMS" };
  info.signatureAlgorithmOid = signerInfo.signatureAlgorithm;
  info.signedAttributes = signerInfo.attributes.map((attr) => attr.type);
  info.hasSigningTime = info.signedAttributes.includes(OID.signingTime);
  const policy = signerInfo.attributes.find((attr) => attr.type === OID.sigPolicyId)?.values[0];
  if (policy) {
    // SignaturePolicyId ::= SEQUENCE { sigPolicyId, sigPolicyHash { alg, OCTET STRING }, qualifiers? }
    const [policyOid, policyHash] = children(policy);
    info.policyOid = oidOf(policyOid) || null;
    info.policyHash = policyHash ? bytesOf(children(policyHash)[1]) : null;
  }
  info.timestamp = checkTimestamp(signerInfo);

  const check = verifySignerInfo(signedData, signerInfo, signed);
  if (check.certificateDer) {
    info.certificateDer = check.certificateDer;
    info.chainDer = signedData.certificates.filter((der) => !der.equals(check.certificateDer!));
    info.signerCommonName = certificateNames(check.certificateDer).commonName || null;
  }
  info.digestOk = check.digestOk;
  info.signatureOk = check.signatureOk;
  info.valid = check.digestOk && check.signatureOk;
  if (check.reason) info.reason = check.reason;
  else delete info.reason;
  return info;
}

const endOf = (s: PdfSignatureInfo) => s.byteRange[2] + s.byteRange[3];

/** The seal's index and what follows its revision (only our DSS and document time-stamps may). */
function afterSealOf(pdf: Buffer, signatures: PdfSignatureInfo[]): { sealIndex: number; afterSeal: AfterSeal | null } {
  const sealIndex = signatures.findLastIndex((s) => s.kind === "assinatura");
  const seal = signatures[sealIndex];
  if (!seal) return { sealIndex, afterSeal: null };
  const stamps = signatures.slice(sealIndex + 1).map(endOf);
  return { sealIndex, afterSeal: checkAfterSeal(pdf, endOf(seal), stamps) };
}

/**
 * Every signature in the file, in file order, and whether together they hold: each valid, the
 * last one covering the whole file, every earlier one a complete revision (ending at %%EOF) and
 * each covering more than the one before.
 */
export function checkAllPdfSignatures(pdf: Buffer): AllPdfSignaturesCheck {
  const text = pdf.toString("latin1");
  const ranges = byteRanges(text);
  const none = { sealIndex: -1, afterSeal: null };
  const refused = tooMany(ranges);
  if (refused) return { valid: false, signatures: [], ...none, reason: refused };
  const signatures = ranges.map((range, index) => checkOne(pdf, text, index, range));
  if (signatures.length === 0) return { valid: false, signatures, ...none, reason: "sem /ByteRange" };
  const { sealIndex, afterSeal } = afterSealOf(pdf, signatures);
  const problems: string[] = [];
  if (sealIndex < 0) problems.push("nenhuma assinatura além de carimbos do documento");
  signatures.forEach((signature, i) => {
    const label = `assinatura ${i + 1}`;
    if (!signature.valid) problems.push(`${label}: ${signature.reason ?? "inválida"}`);
    const last = i === signatures.length - 1;
    if (!last && !signature.endsAtEof) problems.push(`${label}: não termina numa revisão completa (%%EOF)`);
    if (!last && signature.coversWholeFile) problems.push(`${label}: cobre o arquivo inteiro mas não é a última`);
    const previous = signatures[i - 1];
    if (previous && endOf(signature) <= endOf(previous)) problems.push(`${label}: não cobre a revisão anterior`);
  });
  if (afterSeal && !afterSeal.ok) problems.push(`assinatura ${sealIndex + 1}: ${afterSeal.reason}`);
  return problems.length
    ? { valid: false, signatures, sealIndex, afterSeal, reason: problems.join("; ") }
    : { valid: true, signatures, sealIndex, afterSeal };
}

export function verifyPdfSignature(pdf: Buffer): PdfSignatureCheck {
  const { certificateDer: _certificate, ...check } = checkPdfSignature(pdf);
  return check;
}

/**
 * The last signature only (the seal, for the current callers), {@link verifyPdfSignature} plus
 * the signer certificate (DER) when one was found.
 */
export function checkPdfSignature(pdf: Buffer): PdfSignatureCheck & { certificateDer?: Buffer } {
  const text = pdf.toString("latin1");
  const ranges = byteRanges(text);
  const refused = tooMany(ranges);
  if (refused) return invalid(refused);
  const index = ranges.findLastIndex((r) => r.kind === "assinatura");
  const found = ranges[index];
  if (!found) return invalid("sem /ByteRange");
  const info = checkOne(pdf, text, index, found);
  // What follows the seal: only our DSS and document time-stamps (decision 053).
  const stamps = ranges
    .slice(index + 1)
    .filter((r) => r.kind === "carimbo_documento")
    .map((r) => r.range[2] + r.range[3]);
  const after = info.valid ? checkAfterSeal(pdf, found.range[2] + found.range[3], stamps) : null;
  // A revision counts as a document time-stamp only if its token verifies over its byte range.
  const badStamp = ranges
    .map((range, at) => ({ range, at }))
    .slice(index + 1)
    .filter(({ range }) => range.kind === "carimbo_documento")
    .map(({ range, at }) => checkOne(pdf, text, at, range))
    .find((stamp) => !stamp.valid);
  const result: PdfSignatureCheck & { certificateDer?: Buffer } = !info.valid
    ? invalid(info.reason ?? "assinatura inválida", info.signerCommonName)
    : after && !after.ok
      ? invalid(after.reason, info.signerCommonName)
      : badStamp
        ? invalid(`carimbo do tempo do documento inválido: ${badStamp.reason ?? "não confere"}`, info.signerCommonName)
        : { valid: true, signerCommonName: info.signerCommonName };
  if (info.certificateDer) result.certificateDer = info.certificateDer;
  return result;
}
