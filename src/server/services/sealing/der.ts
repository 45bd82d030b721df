/**
 * Just enough DER (X.690) to write a CMS SignedData by hand: tag-length-value with definite
 * lengths, object identifiers, and SET OF sorted the DER way. Building the signature from
 * bytes we control (instead of node-forge's pkcs7 writer) lets the hash and the RSA operation
 * run in node:crypto and leaves out the signingTime attribute (PAdES: the time goes in /M).
 */

export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  IA5_STRING: 0x16,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
  /** [0] constructed (EXPLICIT [0], or IMPLICIT [0] of a constructed type). */
  CONTEXT_0: 0xa0,
  /** [1] constructed: the SignerInfo's unsignedAttrs ([1] IMPLICIT SET OF Attribute). */
  CONTEXT_1: 0xa1,
  /** [4] constructed: GeneralName directoryName ([4] EXPLICIT Name). */
  CONTEXT_4: 0xa4,
} as const;

function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), lengthBytes(body.length), body]);
}

export const sequence = (...items: Buffer[]) => tlv(TAG.SEQUENCE, ...items);

/** SET OF: elements in ascending order of their encodings (X.690 §11.6). */
export function setOf(...items: Buffer[]): Buffer {
  return tlv(TAG.SET, ...[...items].sort(Buffer.compare));
}

export function oid(dotted: string): Buffer {
  const parts = dotted.split(".").map(Number);
  if (parts.length < 2 || parts.some((p) => !Number.isInteger(p) || p < 0)) throw new Error(`OID inválido: ${dotted}`);
  const out: number[] = [40 * parts[0]! + parts[1]!];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    for (let n = Math.floor(part / 128); n > 0; n = Math.floor(n / 128)) chunk.unshift((n & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(TAG.OID, Buffer.from(out));
}

export const octetString = (bytes: Buffer) => tlv(TAG.OCTET_STRING, bytes);
export const derNull = () => Buffer.from([TAG.NULL, 0x00]);
export const smallInteger = (n: number) => tlv(TAG.INTEGER, Buffer.from([n]));
export const ia5String = (text: string) => tlv(TAG.IA5_STRING, Buffer.from(text, "ascii"));
export const utf8String = (text: string) => tlv(TAG.UTF8_STRING, Buffer.from(text, "utf8"));
export const derBoolean = (value: boolean) => Buffer.from([TAG.BOOLEAN, 0x01, value ? 0xff : 0x00]);

/** A non-negative INTEGER from its big-endian magnitude (minimal, with a 0x00 when the top bit is set). */
export function unsignedInteger(magnitude: Buffer): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const bytes = magnitude.subarray(start);
  return tlv(
    TAG.INTEGER,
    bytes.length === 0 ? Buffer.from([0]) : bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes,
  );
}

/** GeneralizedTime in UTC ("YYYYMMDDHHMMSS[.fff]Z", no trailing zeros in the fraction, X.690 §11.7). */
export function generalizedTime(date: Date): Buffer {
  const iso = date.toISOString(); // 2026-01-02T03:04:05.678Z
  const base = iso.slice(0, 19).replace(/[-:T]/g, "");
  const millis = iso.slice(20, 23).replace(/0+$/, "");
  return tlv(TAG.GENERALIZED_TIME, Buffer.from(`${base}${millis ? `.${millis}` : ""}Z`, "ascii"));
}

/** The same TLV with another tag: IMPLICIT tagging of a constructed value (e.g. SET → [0]). */
export function retag(der: Buffer, tag: number): Buffer {
  const out = Buffer.from(der);
  out[0] = tag;
  return out;
}

/** The OIDs of the CMS we write and read. */
export const OID = {
  data: "1.2.840.113549.1.7.1",
  signedData: "1.2.840.113549.1.7.2",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingTime: "1.2.840.113549.1.9.5",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  sha1: "1.3.14.3.2.26",
  sha256: "2.16.840.1.101.3.4.2.1",
  sha384: "2.16.840.1.101.3.4.2.2",
  sha512: "2.16.840.1.101.3.4.2.3",
  rsaEncryption: "1.2.840.113549.1.1.1",
  sha256WithRSAEncryption: "1.2.840.113549.1.1.11",
  sha384WithRSAEncryption: "1.2.840.113549.1.1.12",
  sha512WithRSAEncryption: "1.2.840.113549.1.1.13",
  sha1WithRSAEncryption: "1.2.840.113549.1.1.5",
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  ecdsaWithSha384: "1.2.840.10045.4.3.3",
  ecdsaWithSha512: "1.2.840.10045.4.3.4",
  /** id-aa-ets-sigPolicyId (RFC 5126 §5.8.1): SignaturePolicyIdentifier, a signed attribute. */
  sigPolicyId: "1.2.840.113549.1.9.16.2.15",
  /** id-spq-ets-uri: the policy qualifier carrying the policy document's URI. */
  spqEtsUri: "1.2.840.113549.1.9.16.5.1",
  /** id-aa-signatureTimeStampToken (RFC 3161 appendix A): unsigned attribute. */
  signatureTimeStampToken: "1.2.840.113549.1.9.16.2.14",
  /** id-ct-TSTInfo: eContentType of a time-stamp token. */
  tstInfo: "1.2.840.113549.1.9.16.1.4",
  /** id-kp-timeStamping. */
  kpTimeStamping: "1.3.6.1.5.5.7.3.8",
  subjectKeyIdentifier: "2.5.29.14",
} as const;
