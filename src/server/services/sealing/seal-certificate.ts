/**
 * The instance seal certificate (DESIGN §3): an RSA-2048 key and a self-signed X.509 certificate
 * made with node-forge, kept as PKCS#12 under a random passphrase. The clinic's own ICP-Brasil
 * A1 replaces it when a clinic has one (certificates issue).
 */
import { createPrivateKey, generateKeyPairSync, type KeyObject, randomBytes, X509Certificate } from "node:crypto";
import forge from "node-forge";
import { sha256Hex } from "../../lib/content-hash.js";

export const SEAL_SUBJECT_CN = "Consentir — Selo da instância";
export const SEAL_SUBJECT_O = "Consentir";
export const SEAL_VALIDITY_YEARS = 10;
/** id-kp-documentSigning (RFC 9336). */
const DOCUMENT_SIGNING_OID = "1.3.6.1.5.5.7.3.36";

/** What signing needs, parsed once: the key as node:crypto KeyObject and the certificate DER. */
export interface SealMaterial {
  privateKey: KeyObject;
  certificateDer: Buffer;
  /**
   * The issuers of certificateDer, nearest first (AC, …, root), without the holder: written with it
   * in the CMS `certificates` so a verifier can build the chain (ICP-Brasil AD-RB asks for all of
   * it). Absent for the self-signed instance seal.
   */
  chainDer?: Buffer[];
  /** Holder's common name (shown in the registry and the verification verdict). */
  commonName: string;
  /** RFC 4514-style subject, e.g. "CN=…, O=Consentir". */
  subject: string;
  fingerprintSha256: string;
  notAfter: Date;
}

export interface GeneratedSeal {
  /** The PKCS#12 (DER) and its passphrase: what gets encrypted at rest. */
  p12: Buffer;
  passphrase: string;
  material: SealMaterial;
}

/** Holder's CN and subject of a certificate (node:crypto decodes UTF8String names correctly). */
export function certificateNames(certificateDer: Buffer): { commonName: string; subject: string } {
  const lines = new X509Certificate(certificateDer).subject.split("\n");
  const commonName = lines.find((line) => line.startsWith("CN="))?.slice(3) ?? "";
  return { commonName, subject: [...lines].reverse().join(", ") };
}

function materialOf(cert: forge.pki.Certificate, privateKey: KeyObject): SealMaterial {
  const certificateDer = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), "binary");
  return {
    privateKey,
    certificateDer,
    ...certificateNames(certificateDer),
    fingerprintSha256: sha256Hex(certificateDer),
    notAfter: cert.validity.notAfter,
  };
}

/** A new seal: key pair from node:crypto (fast, native), certificate and PKCS#12 from node-forge. */
export function generateSealCertificate(now: Date = new Date()): GeneratedSeal {
  const { privateKey: keyPem } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicExponent: 0x10001,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const forgeKey = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const publicKey = forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e);

  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // Positive 128-bit serial (first byte below 0x80 keeps the INTEGER positive without padding).
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x10;
  cert.serialNumber = serial.toString("hex");
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + SEAL_VALIDITY_YEARS);
  cert.validity.notAfter = notAfter;
  const name = [
    { shortName: "CN", value: SEAL_SUBJECT_CN, valueTagClass: forge.asn1.Type.UTF8 },
    { shortName: "O", value: SEAL_SUBJECT_O, valueTagClass: forge.asn1.Type.UTF8 },
    { shortName: "C", value: "BR" },
  ] as forge.pki.CertificateField[];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true, critical: true },
    { name: "extKeyUsage", emailProtection: true, [DOCUMENT_SIGNING_OID]: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(forgeKey, forge.md.sha256.create());

  const passphrase = randomBytes(24).toString("base64url");
  const p12Asn1 = forge.pkcs12.toPkcs12Asn1(forgeKey, [cert], passphrase, {
    algorithm: "aes256",
    friendlyName: SEAL_SUBJECT_CN,
    generateLocalKeyId: true,
  });
  const p12 = Buffer.from(forge.asn1.toDer(p12Asn1).getBytes(), "binary");
  return { p12, passphrase, material: materialOf(cert, createPrivateKey(keyPem)) };
}

/**
 * Opens a PKCS#12 (the costly part, ~8 ms: done once per process and certificate) into the key
 * and the certificate that matches it.
 */
export function unlockP12(p12: Uint8Array, passphrase: string): SealMaterial {
  const asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(p12).toString("binary")));
  const store = forge.pkcs12.pkcs12FromAsn1(asn1, false, passphrase);
  const keyBag =
    store.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!]?.[0] ??
    store.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!]?.[0];
  const key = keyBag?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key) throw new Error("o PKCS#12 não contém chave privada");
  const certs = (store.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? [])
    .map((bag) => bag.cert)
    .filter((c): c is forge.pki.Certificate => !!c);
  const cert = certs.find((c) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey;
    return pub.n.compareTo(key.n) === 0 && pub.e.compareTo(key.e) === 0;
  });
  if (!cert) throw new Error("o PKCS#12 não contém o certificado da chave");
  return materialOf(cert, createPrivateKey(forge.pki.privateKeyToPem(key)));
}
