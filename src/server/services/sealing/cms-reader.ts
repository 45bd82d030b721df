/**
 * Reads a CMS SignedData (RFC 5652) with node-forge's ASN.1 parser and checks one SignerInfo
 * with node:crypto. Shared by the PDF signature verifier (detached content: the signed byte
 * ranges) and the time-stamp token check (encapsulated content: the TSTInfo).
 */
import { createHash, verify, X509Certificate } from "node:crypto";
import forge from "node-forge";
import { OID } from "./der.js";

export type Asn1Node = forge.asn1.Asn1;

export const children = (node: Asn1Node | undefined): Asn1Node[] =>
  Array.isArray(node?.value) ? (node.value as Asn1Node[]) : [];
export const bytesOf = (node: Asn1Node | undefined): Buffer =>
  Buffer.from(typeof node?.value === "string" ? node.value : "", "binary");
export const oidOf = (node: Asn1Node | undefined): string =>
  typeof node?.value === "string" ? forge.asn1.derToOid(node.value) : "";
export const derOf = (node: Asn1Node): Buffer => Buffer.from(forge.asn1.toDer(node).getBytes(), "binary");
const isContext = (node: Asn1Node | undefined, tag: number) =>
  node?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && node.type === tag;

/** The first DER element of `bytes` (trailing bytes, like /Contents' zero padding, are ignored). */
export function parseDer(bytes: Buffer): Asn1Node {
  return forge.asn1.fromDer(forge.util.createBuffer(bytes.toString("binary")), {
    parseAllBytes: false,
    strict: false,
  } as never);
}

export const DIGESTS: Record<string, string> = {
  [OID.sha1]: "sha1",
  [OID.sha256]: "sha256",
  [OID.sha384]: "sha384",
  [OID.sha512]: "sha512",
};

/** Signature algorithm → the digest it implies (null: the SignerInfo's digestAlgorithm). */
const SIGNATURE_DIGESTS: Record<string, string | null> = {
  [OID.rsaEncryption]: null,
  [OID.sha1WithRSAEncryption]: "sha1",
  [OID.sha256WithRSAEncryption]: "sha256",
  [OID.sha384WithRSAEncryption]: "sha384",
  [OID.sha512WithRSAEncryption]: "sha512",
  [OID.ecdsaWithSha256]: "sha256",
  [OID.ecdsaWithSha384]: "sha384",
  [OID.ecdsaWithSha512]: "sha512",
};

export interface CmsAttribute {
  type: string;
  values: Asn1Node[];
}

export interface CmsSignerInfo {
  sid: Asn1Node;
  digestAlgorithm: string;
  signedAttrs: Asn1Node | undefined;
  attributes: CmsAttribute[];
  signatureAlgorithm: string;
  signature: Buffer;
  unsignedAttributes: CmsAttribute[];
}

export interface CmsSignedData {
  /** Every certificate of `certificates`, as DER, in the order written. */
  certificates: Buffer[];
  eContentType: string;
  /** The encapsulated content, when not detached. */
  eContent: Buffer | undefined;
  signerInfos: CmsSignerInfo[];
}

const attributesOf = (node: Asn1Node | undefined): CmsAttribute[] =>
  children(node).map((attr) => ({ type: oidOf(children(attr)[0]), values: children(children(attr)[1]) }));

/** Parses ContentInfo { signedData }; throws (pt-BR message) when it is not one. */
export function parseSignedData(der: Buffer): CmsSignedData {
  const [typeNode, wrapped] = children(parseDer(der));
  if (oidOf(typeNode) !== OID.signedData) throw new Error("o conteúdo não é SignedData");
  const signedData = children(children(wrapped)[0]);
  // version, digestAlgorithms, encapContentInfo, [0] certificates?, [1] crls?, signerInfos
  const [eTypeNode, eContentWrapper] = children(signedData[2]);
  const eContentNode = children(eContentWrapper)[0];
  const certificatesNode = signedData.find((n) => isContext(n, 0));
  const signerInfos = children(signedData[signedData.length - 1]).map((node): CmsSignerInfo => {
    // version, sid, digestAlgorithm, [0] signedAttrs?, signatureAlgorithm, signature, [1] unsignedAttrs?
    const [, sid, digestAlgorithm, ...rest] = children(node);
    const signedAttrs = isContext(rest[0], 0) ? rest.shift() : undefined;
    const [signatureAlgorithm, signature, unsigned] = rest;
    return {
      sid: sid!,
      digestAlgorithm: oidOf(children(digestAlgorithm)[0]),
      signedAttrs,
      attributes: attributesOf(signedAttrs),
      signatureAlgorithm: oidOf(children(signatureAlgorithm)[0]),
      signature: bytesOf(signature),
      unsignedAttributes: isContext(unsigned, 1) ? attributesOf(unsigned) : [],
    };
  });
  return {
    certificates: children(certificatesNode).map(derOf),
    eContentType: oidOf(eTypeNode),
    // A constructed (BER) OCTET STRING would hold pieces: join them.
    eContent: eContentNode
      ? Array.isArray(eContentNode.value)
        ? Buffer.concat(children(eContentNode).map(bytesOf))
        : bytesOf(eContentNode)
      : undefined,
    signerInfos,
  };
}

/** TBSCertificate's issuer + serial (DER SEQUENCE), and its subjectKeyIdentifier if any. */
function certificateIds(certificateDer: Buffer): { issuerSerial: Buffer; ski: Buffer | null } {
  const tbs = children(children(parseDer(certificateDer))[0]);
  const offset = isContext(tbs[0], 0) ? 1 : 0;
  const issuerSerial = derOf(
    forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SEQUENCE, true, [tbs[offset + 2]!, tbs[offset]!]),
  );
  const extensions = children(children(tbs.find((n) => isContext(n, 3)))[0]);
  const skiExtension = extensions.find((ext) => oidOf(children(ext)[0]) === OID.subjectKeyIdentifier);
  const extnValue = skiExtension ? children(skiExtension).at(-1) : undefined;
  return { issuerSerial, ski: extnValue ? bytesOf(parseDer(bytesOf(extnValue))) : null };
}

/** The certificate the SignerInfo names: issuerAndSerialNumber, or [0] subjectKeyIdentifier. */
export function signerCertificate(signedData: CmsSignedData, signerInfo: CmsSignerInfo): Buffer | undefined {
  const bySki = isContext(signerInfo.sid, 0);
  const wanted = bySki ? bytesOf(signerInfo.sid) : derOf(signerInfo.sid);
  return signedData.certificates.find((der) => {
    try {
      const ids = certificateIds(der);
      return bySki ? !!ids.ski && ids.ski.equals(wanted) : ids.issuerSerial.equals(wanted);
    } catch {
      return false;
    }
  });
}

export interface SignerCheck {
  /** messageDigest attribute equals the content's digest (true when there are no signed attributes). */
  digestOk: boolean;
  /** The signature verifies with the signer certificate's public key. */
  signatureOk: boolean;
  certificateDer: Buffer | undefined;
  /** pt-BR, for logs and tests, when not both ok. */
  reason?: string;
}

/** Checks one SignerInfo over `content` (the detached bytes, or the eContent). */
export function verifySignerInfo(signedData: CmsSignedData, signerInfo: CmsSignerInfo, content: Buffer): SignerCheck {
  const digestName = DIGESTS[signerInfo.digestAlgorithm];
  if (!digestName)
    return {
      digestOk: false,
      signatureOk: false,
      certificateDer: undefined,
      reason: "algoritmo de resumo não suportado",
    };
  if (!(signerInfo.signatureAlgorithm in SIGNATURE_DIGESTS)) {
    return {
      digestOk: false,
      signatureOk: false,
      certificateDer: undefined,
      reason: "algoritmo de assinatura não suportado",
    };
  }
  const sigDigest = SIGNATURE_DIGESTS[signerInfo.signatureAlgorithm] ?? digestName;
  const certificateDer = signerCertificate(signedData, signerInfo);
  if (!certificateDer)
    return { digestOk: false, signatureOk: false, certificateDer, reason: "certificado do signatário ausente" };
  const publicKey = new X509Certificate(certificateDer).publicKey;

  if (!signerInfo.signedAttrs) {
    const ok = verify(sigDigest, content, publicKey, signerInfo.signature);
    return ok
      ? { digestOk: true, signatureOk: true, certificateDer }
      : { digestOk: true, signatureOk: false, certificateDer, reason: "assinatura RSA não confere" };
  }
  const messageDigest = signerInfo.attributes.find((a) => a.type === OID.messageDigest)?.values[0];
  if (!messageDigest)
    return { digestOk: false, signatureOk: false, certificateDer, reason: "sem atributo messageDigest" };
  const digestOk = bytesOf(messageDigest).equals(createHash(digestName).update(content).digest());
  // The signature covers the attributes encoded as SET (tag 0x31), not as [0] IMPLICIT.
  const attrsDer = derOf(signerInfo.signedAttrs);
  attrsDer[0] = 0x31;
  const signatureOk = verify(sigDigest, attrsDer, publicKey, signerInfo.signature);
  if (!digestOk) return { digestOk, signatureOk, certificateDer, reason: "o resumo do conteúdo não confere" };
  return signatureOk
    ? { digestOk, signatureOk, certificateDer }
    : { digestOk, signatureOk, certificateDer, reason: "assinatura RSA não confere" };
}
