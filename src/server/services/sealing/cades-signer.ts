/**
 * A CMS signer for PAdES (SubFilter ETSI.CAdES.detached) on @signpdf/utils' Signer base.
 *
 * Why not @signpdf/signer-p12: it opens the PKCS#12 on every signature (~8 ms+; DESIGN §6), does
 * the RSA operation and the SHA-256 in pure JavaScript, and adds a signingTime attribute, which
 * PAdES baseline signatures must not carry (the time goes in the signature dictionary's /M).
 * Here the key arrives already parsed (a node:crypto KeyObject, cached per process), the hash and
 * RSA PKCS#1 v1.5 run in node:crypto, and the signed attributes are the CAdES-BES/PAdES-B-B set:
 * contentType, messageDigest and signingCertificateV2 (ESS, the SHA-256 of our certificate).
 *
 * SignedData (RFC 5652): version 1, digestAlgorithms {sha256}, encapContentInfo {id-data} without
 * content (detached), certificates [0] {our certificate}, one SignerInfo (issuerAndSerialNumber).
 */
import { createHash, sign } from "node:crypto";
import { Signer } from "@signpdf/utils";
import forge from "node-forge";
import { derNull, OID, octetString, oid, sequence, setOf, smallInteger, TAG, tlv } from "./der.js";
import type { SealMaterial } from "./seal-certificate.js";

const issuerAndSerialCache = new WeakMap<SealMaterial, Buffer>();

/** IssuerAndSerialNumber of the certificate, taken from its own TBSCertificate bytes. */
function issuerAndSerial(material: SealMaterial): Buffer {
  const cached = issuerAndSerialCache.get(material);
  if (cached) return cached;
  const cert = forge.asn1.fromDer(forge.util.createBuffer(material.certificateDer.toString("binary")));
  const tbs = (cert.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[];
  // TBSCertificate: [0] version (present for v3), serialNumber, signature, issuer, …
  const offset = tbs[0]!.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
  const der = (node: forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(node).getBytes(), "binary");
  const value = sequence(der(tbs[offset + 2]!), der(tbs[offset]!));
  issuerAndSerialCache.set(material, value);
  return value;
}

const attribute = (type: string, value: Buffer) => sequence(oid(type), setOf(value));

/** The DER of the signed attributes as a SET (what the RSA signature covers). */
export function signedAttributes(material: SealMaterial, contentDigest: Buffer): Buffer {
  const certHash = createHash("sha256").update(material.certificateDer).digest();
  return setOf(
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octetString(contentDigest)),
    // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }; ESSCertIDv2 with the
    // default hash algorithm (SHA-256) carries only certHash.
    attribute(OID.signingCertificateV2, sequence(sequence(sequence(octetString(certHash))))),
  );
}

/** CMS SignedData (DER) over `content`, detached. */
export function cadesDetached(material: SealMaterial, content: Buffer): Buffer {
  const digest = createHash("sha256").update(content).digest();
  const attrs = signedAttributes(material, digest);
  const signature = sign("sha256", attrs, material.privateKey);
  // In SignerInfo the same attributes are tagged [0] IMPLICIT instead of SET.
  const attrsImplicit = Buffer.concat([Buffer.from([TAG.CONTEXT_0]), attrs.subarray(1)]);
  const sha256Algorithm = sequence(oid(OID.sha256));
  const signerInfo = sequence(
    smallInteger(1),
    issuerAndSerial(material),
    sha256Algorithm,
    attrsImplicit,
    sequence(oid(OID.rsaEncryption), derNull()),
    octetString(signature),
  );
  const signedData = sequence(
    smallInteger(1),
    setOf(sha256Algorithm),
    sequence(oid(OID.data)),
    tlv(TAG.CONTEXT_0, material.certificateDer),
    setOf(signerInfo),
  );
  return sequence(oid(OID.signedData), tlv(TAG.CONTEXT_0, signedData));
}

/**
 * One signer per document (as @signpdf expects), cheap to create: it only holds the parsed
 * material shared by every signature of the process.
 */
export class CadesSigner extends Signer {
  constructor(private readonly material: SealMaterial) {
    super();
  }

  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    return cadesDetached(this.material, pdfBuffer);
  }
}
