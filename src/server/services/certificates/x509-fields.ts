/**
 * Small readers of X.509 fields node-forge leaves raw: subjectAltName otherName values (the
 * ICP-Brasil identifiers), certificatePolicies and keyUsage, plus the names as node:crypto
 * prints them (it decodes UTF8String names correctly).
 */
import { X509Certificate } from "node:crypto";
import forge from "node-forge";

const { asn1 } = forge;
type Asn1 = forge.asn1.Asn1;

interface RawExtension {
  id: string;
  value: string;
  [flag: string]: unknown;
}

function extension(cert: forge.pki.Certificate, oid: string): RawExtension | undefined {
  return (cert.extensions as RawExtension[]).find((ext) => ext.id === oid);
}

function bytesOf(node: Asn1): string {
  return Array.isArray(node.value) ? node.value.map((child) => asn1.toDer(child).getBytes()).join("") : node.value;
}

/** The text of a string-ish ASN.1 value: UTF8String decoded, BMPString from UTF-16BE, the rest as bytes. */
function textOf(node: Asn1): string {
  const bytes = bytesOf(node);
  if (node.type === asn1.Type.UTF8) {
    try {
      return forge.util.decodeUtf8(bytes);
    } catch {
      return bytes;
    }
  }
  if (node.type === asn1.Type.BMPSTRING) return Buffer.from(bytes, "binary").swap16().toString("utf16le");
  return bytes;
}

/**
 * otherName values of subjectAltName by OID. GeneralName's otherName is [0] IMPLICIT
 * SEQUENCE { type-id OID, value [0] EXPLICIT ANY }; ICP-Brasil puts an OCTET STRING there, some
 * ACs a PrintableString, UTF8String or IA5String: all are read as text.
 */
export function otherNames(cert: forge.pki.Certificate): Map<string, string> {
  const found = new Map<string, string>();
  const ext = extension(cert, "2.5.29.17");
  if (!ext) return found;
  const names = asn1.fromDer(ext.value);
  if (!Array.isArray(names.value)) return found;
  for (const name of names.value) {
    if (name.tagClass !== asn1.Class.CONTEXT_SPECIFIC || name.type !== 0 || !Array.isArray(name.value)) continue;
    const [typeId, explicit] = name.value;
    if (!typeId || typeId.type !== asn1.Type.OID || !explicit || !Array.isArray(explicit.value) || !explicit.value[0])
      continue;
    const oid = asn1.derToOid(typeId.value as string);
    if (!found.has(oid)) found.set(oid, textOf(explicit.value[0]));
  }
  return found;
}

/** The rfc822Name (e-mail) of subjectAltName, if any. */
export function altNameEmail(cert: forge.pki.Certificate): string | null {
  const ext = extension(cert, "2.5.29.17") as { altNames?: { type: number; value: string }[] } | undefined;
  return ext?.altNames?.find((name) => name.type === 1)?.value ?? null;
}

/** Policy OIDs of certificatePolicies. */
export function policyOids(cert: forge.pki.Certificate): string[] {
  const ext = extension(cert, "2.5.29.32");
  if (!ext) return [];
  const policies = asn1.fromDer(ext.value);
  if (!Array.isArray(policies.value)) return [];
  return policies.value.flatMap((info) => {
    const oid = Array.isArray(info.value) ? info.value[0] : undefined;
    return oid && oid.type === asn1.Type.OID ? [asn1.derToOid(oid.value as string)] : [];
  });
}

const KEY_USAGE_FLAGS = [
  "digitalSignature",
  "nonRepudiation",
  "keyEncipherment",
  "dataEncipherment",
  "keyAgreement",
  "keyCertSign",
  "cRLSign",
  "encipherOnly",
  "decipherOnly",
] as const;

/** keyUsage flags that are set, or null when the certificate has no keyUsage extension. */
export function keyUsage(cert: forge.pki.Certificate): string[] | null {
  const ext = extension(cert, "2.5.29.15");
  if (!ext) return null;
  return KEY_USAGE_FLAGS.filter((flag) => ext[flag] === true);
}

export function derOf(cert: forge.pki.Certificate): Buffer {
  return Buffer.from(asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), "binary");
}

function distinguishedName(lines: string): { commonName: string; name: string } {
  const parts = lines.split("\n").filter(Boolean);
  return {
    commonName: parts.find((line) => line.startsWith("CN="))?.slice(3) ?? "",
    name: [...parts].reverse().join(", "),
  };
}

/** Subject and issuer (RFC 4514 order, most specific first), their CNs, and the serial in hex. */
export function names(der: Buffer): {
  commonName: string;
  subject: string;
  issuer: string;
  issuerCommonName: string;
  serialNumber: string;
} {
  const x509 = new X509Certificate(der);
  const subject = distinguishedName(x509.subject);
  const issuer = distinguishedName(x509.issuer);
  return {
    commonName: subject.commonName,
    subject: subject.name,
    issuer: issuer.name,
    issuerCommonName: issuer.commonName,
    serialNumber: x509.serialNumber.toUpperCase(),
  };
}

/** Whether a certificate's subject has O=ICP-Brasil. */
export function isIcpBrasilName(cert: forge.pki.Certificate): boolean {
  return cert.subject.attributes.some((attr) => attr.shortName === "O" && String(attr.value).trim() === "ICP-Brasil");
}
