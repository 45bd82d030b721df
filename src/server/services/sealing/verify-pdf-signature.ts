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
import { OID } from "./der.js";
import { certificateNames } from "./seal-certificate.js";

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
  /** Every signature valid, the last one covering the whole file and each earlier one a revision. */
  valid: boolean;
  signatures: PdfSignatureInfo[];
  reason?: string;
}

const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
/** %%EOF, optionally followed by its end-of-line, at the end of a signed revision. */
const REVISION_END = /%%EOF(\r\n|\r|\n)?$/;

function invalid(reason: string, signerCommonName: string | null = null): PdfSignatureCheck {
  return { valid: false, signerCommonName, reason };
}

function emptyInfo(index: number, byteRange: PdfSignatureInfo["byteRange"], reason: string): PdfSignatureInfo {
  return {
    index,
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

/** One /ByteRange: its ranges, its CMS and what they say. */
function checkOne(pdf: Buffer, text: string, index: number, range: [number, number, number, number]): PdfSignatureInfo {
  const [a, b, c, d] = range;
  if (a !== 0 || b <= 0 || c <= b || c + d > pdf.length) return emptyInfo(index, range, "/ByteRange malformado");
  const gap = text.slice(b, c);
  if (!/^<[0-9a-fA-F]*>$/.test(gap)) return emptyInfo(index, range, "o intervalo não assinado não é só o /Contents");
  const hex = gap.slice(1, -1);
  if (hex.length % 2 !== 0) return emptyInfo(index, range, "/Contents com número ímpar de dígitos");
  const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  const info = emptyInfo(index, range, "");
  info.coversWholeFile = c + d === pdf.length;
  info.endsAtEof = REVISION_END.test(text.slice(Math.max(0, c + d - 8), c + d));

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

/** More signatures than any PDF of ours carries (the professional's, the seal): refused unread (decision 049). */
export const MAX_PDF_SIGNATURES = 8;

/** The file's /ByteRange arrays, in order; at most MAX_PDF_SIGNATURES + 1 are read. */
function byteRanges(text: string): [number, number, number, number][] {
  const ranges: [number, number, number, number][] = [];
  for (const m of text.matchAll(BYTE_RANGE)) {
    ranges.push(m.slice(1, 5).map(Number) as [number, number, number, number]);
    if (ranges.length > MAX_PDF_SIGNATURES) break;
  }
  return ranges;
}

/**
 * Every signature in the file, in file order, and whether together they hold: each valid, the
 * last one covering the whole file, every earlier one a complete revision (ending at %%EOF) and
 * each covering more than the one before.
 */
export function checkAllPdfSignatures(pdf: Buffer): AllPdfSignaturesCheck {
  const text = pdf.toString("latin1");
  const ranges = byteRanges(text);
  if (ranges.length > MAX_PDF_SIGNATURES)
    return { valid: false, signatures: [], reason: `mais de ${MAX_PDF_SIGNATURES} assinaturas` };
  const signatures = ranges.map((range, index) => checkOne(pdf, text, index, range));
  if (signatures.length === 0) return { valid: false, signatures, reason: "sem /ByteRange" };
  const problems: string[] = [];
  signatures.forEach((signature, i) => {
    const label = `assinatura ${i + 1}`;
    if (!signature.valid) problems.push(`${label}: ${signature.reason ?? "inválida"}`);
    const last = i === signatures.length - 1;
    if (last && !signature.coversWholeFile) problems.push(`${label}: o /ByteRange não cobre o arquivo inteiro`);
    if (!last && !signature.endsAtEof) problems.push(`${label}: não termina numa revisão completa (%%EOF)`);
    if (!last && signature.coversWholeFile) problems.push(`${label}: cobre o arquivo inteiro mas não é a última`);
    const previous = signatures[i - 1];
    if (previous) {
      const end = (s: PdfSignatureInfo) => s.byteRange[2] + s.byteRange[3];
      if (end(signature) <= end(previous)) problems.push(`${label}: não cobre a revisão anterior`);
    }
  });
  return problems.length ? { valid: false, signatures, reason: problems.join("; ") } : { valid: true, signatures };
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
  if (ranges.length > MAX_PDF_SIGNATURES) return invalid(`mais de ${MAX_PDF_SIGNATURES} assinaturas`);
  const last = ranges.at(-1);
  if (!last) return invalid("sem /ByteRange");
  const [a, b, c, d] = last;
  if (a !== 0 || b <= 0 || c <= b || c + d !== pdf.length) return invalid("o /ByteRange não cobre o arquivo inteiro");
  const info = checkOne(pdf, text, ranges.length - 1, last);
  const result: PdfSignatureCheck & { certificateDer?: Buffer } = info.valid
    ? { valid: true, signerCommonName: info.signerCommonName }
    : invalid(info.reason ?? "assinatura inválida", info.signerCommonName);
  if (info.certificateDer) result.certificateDer = info.certificateDer;
  return result;
}
