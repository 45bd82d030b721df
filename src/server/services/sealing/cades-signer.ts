/**
 * A CMS signer for PAdES (SubFilter ETSI.CAdES.detached) on @signpdf/utils' Signer base.
 *
 * Why not @signpdf/signer-p12: it opens the PKCS#12 on every signature (~8 ms+; DESIGN §6), does
 * the RSA operation and the SHA-256 in pure JavaScript, and adds a signingTime attribute, which
 * PAdES baseline signatures must not carry (the time goes in the signature dictionary's /M).
 * Here the key arrives already parsed (a node:crypto KeyObject, cached per process) and the hash
 * and RSA PKCS#1 v1.5 run in node:crypto.
 *
 * SignedData (RFC 5652): version 1, digestAlgorithms {sha256}, encapContentInfo {id-data} without
 * content (detached), certificates [0] {holder, then its chain}, one SignerInfo:
 * - sid issuerAndSerialNumber, digestAlgorithm sha256;
 * - signed attributes, in DER SET order, exactly: contentType, messageDigest,
 *   signingCertificateV2 (ESSCertIDv2: SHA-256 of the holder certificate + issuerSerial, which
 *   ETSI EN 319 122-1 §5.2.2.3 recommends) and, with an ICP-Brasil policy, sigPolicyId
 *   (decision 020). Never signingTime;
 * - signatureAlgorithm sha256WithRSAEncryption (ecdsa-with-SHA256 for an EC key);
 * - unsigned attributes: the RFC 3161 signatureTimeStampToken when a time-stamp authority is
 *   given — asked for the SHA-256 of the signature value after signing, then the CMS is assembled.
 */
import { createHash, sign } from "node:crypto";
import { Signer } from "@signpdf/utils";
import forge from "node-forge";
import { derNull, OID, octetString, oid, retag, sequence, setOf, smallInteger, TAG, tlv } from "./der.js";
import type { SealMaterial } from "./seal-certificate.js";
import { type SignaturePolicy, signaturePolicyIdentifier } from "./signature-policy.js";

export type { SignaturePolicy } from "./signature-policy.js";

/** Asks a time-stamp authority for a token over the signature value; returns the token's DER. */
export type SignatureTimestamper = (signatureValue: Buffer) => Promise<Buffer>;

export interface CadesOptions {
  /** ICP-Brasil (or other CAdES) signature policy: adds the sigPolicyId signed attribute. */
  policy?: SignaturePolicy | undefined;
  /** When given, the SignerInfo gets an RFC 3161 signatureTimeStampToken (unsigned attribute). */
  timestamp?: SignatureTimestamper | undefined;
}

/** What every signature by one material shares, computed once per material. */
interface Prepared {
  issuerAndSerial: Buffer;
  signingCertificateV2: Buffer;
  certificates: Buffer;
  signatureAlgorithm: Buffer;
  signatureBytes: number;
}

const prepared = new WeakMap<SealMaterial, Prepared>();

const der = (node: forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(node).getBytes(), "binary");

function prepare(material: SealMaterial): Prepared {
  const cached = prepared.get(material);
  if (cached) return cached;
  const cert = forge.asn1.fromDer(forge.util.createBuffer(material.certificateDer.toString("binary")));
  const tbs = (cert.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[];
  // TBSCertificate: [0] version (present for v3), serialNumber, signature, issuer, …
  const offset = tbs[0]!.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
  const serial = der(tbs[offset]!);
  const issuer = der(tbs[offset + 2]!);
  const certHash = createHash("sha256").update(material.certificateDer).digest();
  // ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256 (so omitted), certHash,
  //   issuerSerial SEQUENCE { issuer GeneralNames (directoryName [4] EXPLICIT Name), serial } }
  const essCertIdV2 = sequence(octetString(certHash), sequence(sequence(tlv(TAG.CONTEXT_4, issuer)), serial));
  const isEc = material.privateKey.asymmetricKeyType === "ec";
  const modulusBits = material.privateKey.asymmetricKeyDetails?.modulusLength ?? 4096;
  const value: Prepared = {
    issuerAndSerial: sequence(issuer, serial),
    // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }
    signingCertificateV2: attribute(OID.signingCertificateV2, sequence(sequence(essCertIdV2))),
    certificates: tlv(TAG.CONTEXT_0, material.certificateDer, ...(material.chainDer ?? []).map((c) => Buffer.from(c))),
    signatureAlgorithm: isEc
      ? sequence(oid(OID.ecdsaWithSha256))
      : sequence(oid(OID.sha256WithRSAEncryption), derNull()),
    // An ECDSA P-521 signature in DER is at most 139 bytes; RSA is the modulus length.
    signatureBytes: isEc ? 139 : Math.ceil(modulusBits / 8),
  };
  prepared.set(material, value);
  return value;
}

function attribute(type: string, ...values: Buffer[]): Buffer {
  return sequence(oid(type), setOf(...values));
}

/** The DER of the signed attributes as a SET (what the signature covers). */
export function signedAttributes(material: SealMaterial, contentDigest: Buffer, policy?: SignaturePolicy): Buffer {
  const attrs = [
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octetString(contentDigest)),
    prepare(material).signingCertificateV2,
  ];
  if (policy) attrs.push(attribute(OID.sigPolicyId, signaturePolicyIdentifier(policy)));
  return setOf(...attrs);
}

/** The signed attributes and the signature over them. */
export interface CadesSignature {
  signedAttrs: Buffer;
  signature: Buffer;
}

export function signCades(material: SealMaterial, content: Buffer, policy?: SignaturePolicy): CadesSignature {
  const digest = createHash("sha256").update(content).digest();
  const signedAttrs = signedAttributes(material, digest, policy);
  return { signedAttrs, signature: sign("sha256", signedAttrs, material.privateKey) };
}

/** ContentInfo { signedData } around one SignerInfo; `timestampToken` goes in its unsignedAttrs. */
export function assembleSignedData(material: SealMaterial, signed: CadesSignature, timestampToken?: Buffer): Buffer {
  const p = prepare(material);
  const sha256Algorithm = sequence(oid(OID.sha256));
  const unsigned = timestampToken
    ? [retag(setOf(attribute(OID.signatureTimeStampToken, timestampToken)), TAG.CONTEXT_1)]
    : [];
  const signerInfo = sequence(
    smallInteger(1),
    p.issuerAndSerial,
    sha256Algorithm,
    // In SignerInfo the same attributes are tagged [0] IMPLICIT instead of SET.
    retag(signed.signedAttrs, TAG.CONTEXT_0),
    p.signatureAlgorithm,
    octetString(signed.signature),
    ...unsigned,
  );
  const signedData = sequence(
    smallInteger(1),
    setOf(sha256Algorithm),
    sequence(oid(OID.data)),
    p.certificates,
    setOf(signerInfo),
  );
  return sequence(oid(OID.signedData), tlv(TAG.CONTEXT_0, signedData));
}

/** CMS SignedData (DER) over `content`, detached, without a time-stamp. */
export function cadesDetached(
  material: SealMaterial,
  content: Buffer,
  options: { policy?: SignaturePolicy | undefined } = {},
): Buffer {
  return assembleSignedData(material, signCades(material, content, options.policy));
}

/**
 * Size of the CMS this material and policy produce without a time-stamp, computed without
 * signing (a zero signature of the key's size): what the /Contents placeholder is sized from.
 */
export function cmsSizeWithoutTimestamp(material: SealMaterial, policy?: SignaturePolicy): number {
  const fake: CadesSignature = {
    signedAttrs: signedAttributes(material, Buffer.alloc(32), policy),
    signature: Buffer.alloc(prepare(material).signatureBytes),
  };
  return assembleSignedData(material, fake).length;
}

/**
 * One signer per document (as @signpdf expects), cheap to create: it only holds the parsed
 * material shared by every signature of the process.
 */
export class CadesSigner extends Signer {
  /** Length of the last CMS made (to resize the placeholder when a token was larger than planned). */
  lastCmsLength = 0;

  constructor(
    private readonly material: SealMaterial,
    private readonly options: CadesOptions = {},
  ) {
    super();
  }

  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    const signed = signCades(this.material, pdfBuffer, this.options.policy);
    const token = this.options.timestamp ? await this.options.timestamp(signed.signature) : undefined;
    const cms = assembleSignedData(this.material, signed, token);
    this.lastCmsLength = cms.length;
    return cms;
  }
}
