/**
 * The CMS checks of the browser verifier (decision 077), with pkijs/asn1js to read and WebCrypto
 * to hash and verify — what cms-reader.ts and timestamp-token.ts do on the server with node-forge
 * and node:crypto, and with the same reasons, so both verifiers give the same verdicts: the
 * messageDigest over the signed bytes, the signature over the signed attributes (re-tagged as
 * SET) with the certificate the SignerInfo names, a time-stamp token's imprint. No Node APIs.
 * Certificate trust (chains, revocation, roots) is not judged here.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { equalBytes } from "../pdf-reader/bytes.js";

export const OIDS = {
  signedData: "1.2.840.113549.1.7.2",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signatureTimeStampToken: "1.2.840.113549.1.9.16.2.14",
  sigPolicyId: "1.2.840.113549.1.9.16.2.15",
  tstInfo: "1.2.840.113549.1.9.16.1.4",
  kpTimeStamping: "1.3.6.1.5.5.7.3.8",
  extKeyUsage: "2.5.29.37",
  subjectKeyIdentifier: "2.5.29.14",
  commonName: "2.5.4.3",
} as const;

const DIGESTS: Record<string, string> = {
  "1.3.14.3.2.26": "SHA-1",
  "2.16.840.1.101.3.4.2.1": "SHA-256",
  "2.16.840.1.101.3.4.2.2": "SHA-384",
  "2.16.840.1.101.3.4.2.3": "SHA-512",
};

/** Signature algorithm → [family, the digest it implies (null: the SignerInfo's digestAlgorithm)]. */
const SIGNATURE_ALGORITHMS: Record<string, ["RSA" | "ECDSA", string | null]> = {
  "1.2.840.113549.1.1.1": ["RSA", null],
  "1.2.840.113549.1.1.5": ["RSA", "SHA-1"],
  "1.2.840.113549.1.1.11": ["RSA", "SHA-256"],
  "1.2.840.113549.1.1.12": ["RSA", "SHA-384"],
  "1.2.840.113549.1.1.13": ["RSA", "SHA-512"],
  "1.2.840.10045.4.3.2": ["ECDSA", "SHA-256"],
  "1.2.840.10045.4.3.3": ["ECDSA", "SHA-384"],
  "1.2.840.10045.4.3.4": ["ECDSA", "SHA-512"],
};

const CURVES: Record<string, { name: string; size: number }> = {
  "1.2.840.10045.3.1.7": { name: "P-256", size: 32 },
  "1.3.132.0.34": { name: "P-384", size: 48 },
  "1.3.132.0.35": { name: "P-521", size: 66 },
};

const subtle = () => globalThis.crypto.subtle;
const view = (buffer: ArrayBuffer | ArrayBufferView): Uint8Array =>
  buffer instanceof ArrayBuffer
    ? new Uint8Array(buffer)
    : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
/** A copy in its own ArrayBuffer (WebCrypto and asn1js want whole buffers). */
const own = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

export async function digest(algorithm: string, data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest(algorithm, own(data)));
}

export const digestName = (oid: string): string | undefined => DIGESTS[oid];

export interface ParsedSignedData {
  signedData: pkijs.SignedData;
  /** Each certificate's DER as written (for fingerprints) and parsed. */
  certificates: { der: Uint8Array; certificate: pkijs.Certificate }[];
}

/** The first BER element of `bytes` (trailing bytes, like /Contents' zero padding, are ignored). */
function parseBer(bytes: Uint8Array): asn1js.AsnType {
  const parsed = asn1js.fromBER(own(bytes));
  if (parsed.offset === -1) throw new Error(parsed.result.error || "DER ilegível");
  return parsed.result;
}

/** ContentInfo { signedData }; throws "o conteúdo não é SignedData" when it is another thing. */
export function parseSignedData(der: Uint8Array): ParsedSignedData {
  const contentInfo = new pkijs.ContentInfo({ schema: parseBer(der) });
  if (contentInfo.contentType !== OIDS.signedData) throw new Error("o conteúdo não é SignedData");
  const signedData = new pkijs.SignedData({ schema: contentInfo.content });
  // The certificates exactly as written: [0] IMPLICIT SET OF inside the SignedData SEQUENCE.
  const body = (contentInfo.content as asn1js.Sequence).valueBlock.value;
  const set = body.find((n) => n.idBlock.tagClass === 3 && n.idBlock.tagNumber === 0) as asn1js.Constructed | undefined;
  const certificates = (set?.valueBlock.value ?? []).flatMap((node) => {
    try {
      const der = node.valueBeforeDecodeView.slice();
      return [{ der, certificate: pkijs.Certificate.fromBER(der) }];
    } catch {
      return [];
    }
  });
  return { signedData, certificates };
}

export function commonName(certificate: pkijs.Certificate): string | null {
  const cn = certificate.subject.typesAndValues.find((t) => t.type === OIDS.commonName);
  const value = cn?.value.valueBlock.value;
  return typeof value === "string" && value ? value : null;
}

const SHORT_NAMES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.5": "serialNumber",
  "1.2.840.113549.1.9.1": "emailAddress",
};

/** The subject as the CLI prints it (most specific first: "CN=…, O=…, C=BR"). */
export function subjectLine(certificate: pkijs.Certificate): string {
  return certificate.subject.typesAndValues
    .map((t) => `${SHORT_NAMES[t.type] ?? t.type}=${String(t.value.valueBlock.value ?? "")}`)
    .reverse()
    .join(", ");
}

/** The certificate the SignerInfo names: issuerAndSerialNumber, or [0] subjectKeyIdentifier. */
function signerCertificate(
  parsed: ParsedSignedData,
  signerInfo: pkijs.SignerInfo,
): { der: Uint8Array; certificate: pkijs.Certificate } | undefined {
  const sid = signerInfo.sid as unknown;
  if (sid instanceof pkijs.IssuerAndSerialNumber)
    return parsed.certificates.find(
      ({ certificate }) => certificate.issuer.isEqual(sid.issuer) && certificate.serialNumber.isEqual(sid.serialNumber),
    );
  const wanted = view((sid as asn1js.Primitive).valueBlock.valueHexView);
  return parsed.certificates.find(({ certificate }) => {
    const ski = certificate.extensions?.find((e) => e.extnID === OIDS.subjectKeyIdentifier);
    const value = ski?.parsedValue as asn1js.OctetString | undefined;
    return !!value && equalBytes(view(value.valueBlock.valueHexView), wanted);
  });
}

export function attributeValues(
  attributes: pkijs.SignedAndUnsignedAttributes | undefined,
  type: string,
): asn1js.AsnType[] {
  return attributes?.attributes.find((a) => a.type === type)?.values ?? [];
}

/** A DER ECDSA-Sig-Value (SEQUENCE { r, s }) as WebCrypto's r || s. */
function ecdsaRaw(signature: Uint8Array, size: number): Uint8Array {
  const sequence = parseBer(signature) as asn1js.Sequence;
  const out = new Uint8Array(size * 2);
  sequence.valueBlock.value.slice(0, 2).forEach((node, i) => {
    let bytes = view((node as asn1js.Integer).valueBlock.valueHexView);
    while (bytes.length > size && bytes[0] === 0) bytes = bytes.subarray(1);
    out.set(bytes.subarray(Math.max(0, bytes.length - size)), i * size + Math.max(0, size - bytes.length));
  });
  return out;
}

async function verifySignature(
  certificate: pkijs.Certificate,
  family: "RSA" | "ECDSA",
  hash: string,
  data: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  const spki = own(view(certificate.subjectPublicKeyInfo.toSchema().toBER()));
  try {
    if (family === "RSA") {
      const key = await subtle().importKey("spki", spki, { name: "RSASSA-PKCS1-v1_5", hash }, false, ["verify"]);
      return await subtle().verify("RSASSA-PKCS1-v1_5", key, own(signature), own(data));
    }
    const params = certificate.subjectPublicKeyInfo.algorithm.algorithmParams as asn1js.ObjectIdentifier | undefined;
    const curve = params ? CURVES[params.valueBlock.toString()] : undefined;
    if (!curve) return false;
    const key = await subtle().importKey("spki", spki, { name: "ECDSA", namedCurve: curve.name }, false, ["verify"]);
    return await subtle().verify({ name: "ECDSA", hash }, key, own(ecdsaRaw(signature, curve.size)), own(data));
  } catch {
    return false;
  }
}

export interface SignerCheck {
  digestOk: boolean;
  signatureOk: boolean;
  certificate?: { der: Uint8Array; certificate: pkijs.Certificate } | undefined;
  reason?: string;
}

/** Checks one SignerInfo over `content` (the detached bytes, or the eContent); reasons as cms-reader.ts gives them. */
export async function verifySignerInfo(
  parsed: ParsedSignedData,
  signerInfo: pkijs.SignerInfo,
  content: Uint8Array,
): Promise<SignerCheck> {
  const hashName = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
  if (!hashName) return { digestOk: false, signatureOk: false, reason: "algoritmo de resumo não suportado" };
  const algorithm = SIGNATURE_ALGORITHMS[signerInfo.signatureAlgorithm.algorithmId];
  if (!algorithm) return { digestOk: false, signatureOk: false, reason: "algoritmo de assinatura não suportado" };
  const [family, implied] = algorithm;
  const sigHash = implied ?? hashName;
  const certificate = signerCertificate(parsed, signerInfo);
  if (!certificate) return { digestOk: false, signatureOk: false, reason: "certificado do signatário ausente" };
  const signature = view(signerInfo.signature.valueBlock.valueHexView);
  if (!signerInfo.signedAttrs) {
    const ok = await verifySignature(certificate.certificate, family, sigHash, content, signature);
    return ok
      ? { digestOk: true, signatureOk: true, certificate }
      : { digestOk: true, signatureOk: false, certificate, reason: "assinatura RSA não confere" };
  }
  const messageDigest = attributeValues(signerInfo.signedAttrs, OIDS.messageDigest)[0] as
    asn1js.OctetString | undefined;
  if (!messageDigest) return { digestOk: false, signatureOk: false, certificate, reason: "sem atributo messageDigest" };
  const digestOk = equalBytes(view(messageDigest.valueBlock.valueHexView), await digest(hashName, content));
  // The signature covers the attributes encoded as SET (tag 0x31), not as [0] IMPLICIT.
  const attrs = new Uint8Array(signerInfo.signedAttrs.encodedValue.slice(0));
  attrs[0] = 0x31;
  const signatureOk = await verifySignature(certificate.certificate, family, sigHash, attrs, signature);
  if (!digestOk) return { digestOk, signatureOk, certificate, reason: "o resumo do conteúdo não confere" };
  return signatureOk
    ? { digestOk, signatureOk, certificate }
    : { digestOk, signatureOk, certificate, reason: "assinatura RSA não confere" };
}

export interface TimeStampTokenInfo {
  genTime: Date;
  policyOid: string;
  imprint: { hash: string | undefined; value: Uint8Array };
  tsa: { der: Uint8Array; certificate: pkijs.Certificate } | undefined;
  signatureValid: boolean;
  reason?: string;
}

/** A time-stamp token read and its signature checked (as timestamp-token.ts); throws when it is not one. */
export async function readTimeStampToken(der: Uint8Array): Promise<TimeStampTokenInfo> {
  const parsed = parseSignedData(der);
  const encap = parsed.signedData.encapContentInfo;
  if (encap.eContentType !== OIDS.tstInfo) throw new Error("o carimbo não contém TSTInfo");
  if (!encap.eContent) throw new Error("o carimbo não traz o TSTInfo");
  const eContent = view(encap.eContent.getValue());
  const tst = pkijs.TSTInfo.fromBER(own(eContent));
  const info: TimeStampTokenInfo = {
    genTime: tst.genTime,
    policyOid: tst.policy,
    imprint: {
      hash: DIGESTS[tst.messageImprint.hashAlgorithm.algorithmId],
      value: view(tst.messageImprint.hashedMessage.valueBlock.valueHexView),
    },
    tsa: undefined,
    signatureValid: false,
  };
  const signerInfo = parsed.signedData.signerInfos[0];
  if (parsed.signedData.signerInfos.length !== 1 || !signerInfo)
    return { ...info, reason: "o carimbo deve ter exatamente um signatário" };
  const check = await verifySignerInfo(parsed, signerInfo, eContent);
  info.tsa = check.certificate;
  if (!check.digestOk || !check.signatureOk)
    return { ...info, reason: `assinatura do carimbo: ${check.reason ?? "não confere"}` };
  const contentType = attributeValues(signerInfo.signedAttrs, OIDS.contentType)[0] as
    asn1js.ObjectIdentifier | undefined;
  if (signerInfo.signedAttrs && contentType?.valueBlock.toString() !== OIDS.tstInfo)
    return { ...info, reason: "contentType do carimbo não é TSTInfo" };
  const eku = check.certificate?.certificate.extensions?.find((e) => e.extnID === OIDS.extKeyUsage)?.parsedValue as
    pkijs.ExtKeyUsage | undefined;
  if (!eku?.keyPurposes.includes(OIDS.kpTimeStamping))
    return { ...info, reason: "o certificado do carimbo não é de carimbo do tempo" };
  return { ...info, signatureValid: true };
}
