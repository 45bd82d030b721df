/**
 * Checks the PAdES signature of a PDF the way a reader does, with node-forge's ASN.1 parser and
 * node:crypto: the last /ByteRange must cover the whole file except the /Contents hex string;
 * /Contents holds a CMS SignedData whose signer's messageDigest attribute equals the digest of
 * the byte ranges, and whose RSA signature over the signed attributes verifies with the embedded
 * certificate that the SignerInfo names. Certificate trust (chains, revocation) is not judged
 * here: the instance seal is self-signed; ICP-Brasil chains come with the clinic A1 issue.
 */
import { createHash, createPublicKey, verify, X509Certificate } from "node:crypto";
import forge from "node-forge";
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

const DIGESTS: Record<string, string> = {
  [OID.sha1]: "sha1",
  [OID.sha256]: "sha256",
  [OID.sha384]: "sha384",
  [OID.sha512]: "sha512",
};
const SIGNATURE_DIGESTS: Record<string, string | null> = {
  [OID.rsaEncryption]: null,
  [OID.sha1WithRSAEncryption]: "sha1",
  [OID.sha256WithRSAEncryption]: "sha256",
  [OID.sha384WithRSAEncryption]: "sha384",
  [OID.sha512WithRSAEncryption]: "sha512",
};

type Node = forge.asn1.Asn1;
const children = (node: Node | undefined): Node[] => (Array.isArray(node?.value) ? (node.value as Node[]) : []);
const bytesOf = (node: Node | undefined): Buffer => Buffer.from(typeof node?.value === "string" ? node.value : "", "binary");
const oidOf = (node: Node | undefined): string => (typeof node?.value === "string" ? forge.asn1.derToOid(node.value) : "");
const derOf = (node: Node): Buffer => Buffer.from(forge.asn1.toDer(node).getBytes(), "binary");

const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;

function invalid(reason: string, signerCommonName: string | null = null): PdfSignatureCheck {
  return { valid: false, signerCommonName, reason };
}

/** The last signature's byte ranges and CMS bytes, or why there is none. */
function locate(pdf: Buffer): { signed: Buffer; cms: Buffer } | string {
  const text = pdf.toString("latin1");
  let last: RegExpExecArray | null = null;
  for (const match of text.matchAll(BYTE_RANGE)) last = match;
  if (!last) return "sem /ByteRange";
  const [a, b, c, d] = last.slice(1, 5).map(Number) as [number, number, number, number];
  if (a !== 0 || b <= 0 || c <= b || c + d !== pdf.length) return "o /ByteRange não cobre o arquivo inteiro";
  const gap = text.slice(b, c);
  if (!/^<[0-9a-fA-F]*>$/.test(gap)) return "o intervalo não assinado não é só o /Contents";
  const hex = gap.slice(1, -1);
  if (hex.length % 2 !== 0) return "/Contents com número ímpar de dígitos";
  return { signed: Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]), cms: Buffer.from(hex, "hex") };
}

export function verifyPdfSignature(pdf: Buffer): PdfSignatureCheck {
  const { certificateDer: _certificate, ...check } = checkPdfSignature(pdf);
  return check;
}

/** {@link verifyPdfSignature} plus the signer certificate (DER) when one was found. */
export function checkPdfSignature(pdf: Buffer): PdfSignatureCheck & { certificateDer?: Buffer } {
  let certificateDer: Buffer | undefined;
  const check = checkPdfSignatureInner(pdf, (der) => {
    certificateDer = der;
  });
  return certificateDer ? { ...check, certificateDer } : check;
}

function checkPdfSignatureInner(pdf: Buffer, foundCertificate: (der: Buffer) => void): PdfSignatureCheck {
  const located = locate(pdf);
  if (typeof located === "string") return invalid(located);
  let signerCommonName: string | null = null;
  try {
    // /Contents is zero-padded after the DER: parse the first element only.
    const contentInfo = forge.asn1.fromDer(forge.util.createBuffer(located.cms.toString("binary")), { parseAllBytes: false, strict: false } as never);
    const [typeNode, wrapped] = children(contentInfo);
    if (oidOf(typeNode) !== OID.signedData) return invalid("o /Contents não é SignedData");
    const signedData = children(children(wrapped)[0]);
    // version, digestAlgorithms, encapContentInfo, [0] certificates?, [1] crls?, signerInfos
    const certificatesNode = signedData.find((n) => n.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && n.type === 0);
    const signerInfos = children(signedData[signedData.length - 1]);
    if (signerInfos.length !== 1) return invalid("esperada uma assinatura no CMS");
    const signerInfo = children(signerInfos[0]);
    // version, sid, digestAlgorithm, [0] signedAttrs?, signatureAlgorithm, signature, [1] unsignedAttrs?
    const [, sid, digestAlgorithm, ...rest] = signerInfo;
    const signedAttrsNode = rest[0]?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && rest[0].type === 0 ? rest.shift() : undefined;
    const [signatureAlgorithm, signatureNode] = rest;

    const digestName = DIGESTS[oidOf(children(digestAlgorithm)[0])];
    if (!digestName) return invalid("algoritmo de resumo não suportado");
    const sigOid = oidOf(children(signatureAlgorithm)[0]);
    if (!(sigOid in SIGNATURE_DIGESTS)) return invalid("algoritmo de assinatura não suportado");
    const sigDigest = SIGNATURE_DIGESTS[sigOid] ?? digestName;

    // The signer's certificate: the one whose issuer and serial the SignerInfo names.
    const sidDer = derOf(sid!);
    const certificate = children(certificatesNode)
      .map((node) => {
        const tbs = children(children(node)[0]);
        const offset = tbs[0]?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
        const issuerSerial = derOf(forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SEQUENCE, true, [tbs[offset + 2]!, tbs[offset]!]));
        return { der: derOf(node), issuerSerial };
      })
      .find((c) => c.issuerSerial.equals(sidDer));
    if (!certificate) return invalid("certificado do signatário ausente");
    foundCertificate(certificate.der);
    signerCommonName = certificateNames(certificate.der).commonName || null;
    const publicKey = createPublicKey(new X509Certificate(certificate.der).publicKey.export({ type: "spki", format: "pem" }));

    const contentDigest = createHash(digestName).update(located.signed).digest();
    const signature = bytesOf(signatureNode);
    if (!signedAttrsNode) {
      const ok = verify(sigDigest, located.signed, publicKey, signature);
      return ok ? { valid: true, signerCommonName } : invalid("assinatura RSA não confere", signerCommonName);
    }
    const attributes = children(signedAttrsNode).map((attr) => ({ type: oidOf(children(attr)[0]), values: children(children(attr)[1]) }));
    const messageDigest = attributes.find((a) => a.type === OID.messageDigest)?.values[0];
    if (!messageDigest) return invalid("sem atributo messageDigest", signerCommonName);
    if (!bytesOf(messageDigest).equals(contentDigest)) return invalid("o resumo do conteúdo não confere", signerCommonName);
    // The signature covers the attributes encoded as SET (tag 0x31), not as [0] IMPLICIT.
    const attrsDer = derOf(signedAttrsNode);
    attrsDer[0] = 0x31;
    const ok = verify(sigDigest, attrsDer, publicKey, signature);
    return ok ? { valid: true, signerCommonName } : invalid("assinatura RSA não confere", signerCommonName);
  } catch (error) {
    return invalid(`CMS ilegível: ${error instanceof Error ? error.message : String(error)}`, signerCommonName);
  }
}
