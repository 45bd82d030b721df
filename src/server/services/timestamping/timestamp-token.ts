/**
 * Reads an RFC 3161 TimeStampToken — a CMS SignedData whose eContent is a TSTInfo — and checks
 * that it is one and that its signature verifies with the authority's certificate carried inside
 * (we always ask with certReq true). Used by the TSA client on every reply and by the PDF verifier
 * on the signatureTimeStampToken it finds. Trust in the authority (accreditation, chain,
 * revocation) is not judged here.
 *
 *   TSTInfo ::= SEQUENCE { version INTEGER, policy OID, messageImprint MessageImprint,
 *     serialNumber INTEGER, genTime GeneralizedTime, accuracy Accuracy OPTIONAL,
 *     ordering BOOLEAN DEFAULT FALSE, nonce INTEGER OPTIONAL, tsa [0] GeneralName OPTIONAL,
 *     extensions [1] IMPLICIT Extensions OPTIONAL }
 *   MessageImprint ::= SEQUENCE { hashAlgorithm AlgorithmIdentifier, hashedMessage OCTET STRING }
 */
import { X509Certificate } from "node:crypto";
import forge from "node-forge";
import { OID } from "../sealing/der.js";
import { bytesOf, children, oidOf, parseDer, parseSignedData, verifySignerInfo } from "../sealing/cms-reader.js";

export interface TimeStampTokenInfo {
  genTime: Date;
  policyOid: string;
  /** Serial number of the token, hex. */
  serialNumber: string;
  messageImprint: { hashAlgorithmOid: string; hash: Buffer };
  /** Big-endian magnitude without leading zeros; null when the token has no nonce. */
  nonce: Buffer | null;
  tsaCertificateDer: Buffer | undefined;
  /** The token's CMS signature verifies with the certificate inside, over exactly this TSTInfo. */
  signatureValid: boolean;
  /** Why it is not valid (pt-BR, for logs and tests). */
  reason?: string;
}

/** INTEGER magnitude without leading zero bytes (for comparing nonces and serials). */
export function integerMagnitude(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  return bytes.subarray(start);
}

const GENERALIZED_TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:[.,](\d+))?Z$/;

export function parseGeneralizedTime(text: string): Date {
  const m = GENERALIZED_TIME.exec(text);
  if (!m) throw new Error(`genTime inválido: ${text}`);
  const [, y, mo, d, h, mi, s, frac] = m;
  const millis = frac ? Math.round(Number(`0.${frac}`) * 1000) : 0;
  return new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), millis));
}

/** Parses and checks a token; throws (pt-BR message) when it is not a time-stamp token at all. */
export function readTimeStampToken(tokenDer: Buffer): TimeStampTokenInfo {
  const signedData = parseSignedData(tokenDer);
  if (signedData.eContentType !== OID.tstInfo) throw new Error("o carimbo não contém TSTInfo");
  if (!signedData.eContent) throw new Error("o carimbo não traz o TSTInfo");
  const [version, policy, imprint, serial, genTime, ...rest] = children(parseDer(signedData.eContent));
  if (!version || !genTime || genTime.type !== forge.asn1.Type.GENERALIZEDTIME) throw new Error("TSTInfo malformado");
  const [imprintAlgorithm, imprintHash] = children(imprint);
  const nonceNode = rest.find((n) => n.tagClass === forge.asn1.Class.UNIVERSAL && n.type === forge.asn1.Type.INTEGER);
  const info: TimeStampTokenInfo = {
    genTime: parseGeneralizedTime(String(genTime.value)),
    policyOid: oidOf(policy),
    serialNumber: integerMagnitude(bytesOf(serial)).toString("hex"),
    messageImprint: { hashAlgorithmOid: oidOf(children(imprintAlgorithm)[0]), hash: bytesOf(imprintHash) },
    nonce: nonceNode ? integerMagnitude(bytesOf(nonceNode)) : null,
    tsaCertificateDer: undefined,
    signatureValid: false,
  };

  const signerInfo = signedData.signerInfos[0];
  if (signedData.signerInfos.length !== 1 || !signerInfo)
    return { ...info, reason: "o carimbo deve ter exatamente um signatário" };
  const check = verifySignerInfo(signedData, signerInfo, signedData.eContent);
  info.tsaCertificateDer = check.certificateDer;
  if (!check.digestOk || !check.signatureOk)
    return { ...info, reason: `assinatura do carimbo: ${check.reason ?? "não confere"}` };
  // RFC 5652 §11.1: with signed attributes, contentType must name the eContentType.
  const contentType = signerInfo.attributes.find((a) => a.type === OID.contentType)?.values[0];
  if (signerInfo.signedAttrs && oidOf(contentType) !== OID.tstInfo)
    return { ...info, reason: "contentType do carimbo não é TSTInfo" };
  // RFC 3161 §2.3: the authority's certificate is for time-stamping only.
  const extendedKeyUsage = new X509Certificate(check.certificateDer!).keyUsage ?? [];
  if (!extendedKeyUsage.includes(OID.kpTimeStamping))
    return { ...info, reason: "o certificado do carimbo não é de carimbo do tempo" };
  return { ...info, signatureValid: true };
}
