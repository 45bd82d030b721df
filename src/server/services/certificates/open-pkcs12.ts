/**
 * Opens a PKCS#12 (.pfx/.p12) with node-forge — never node:crypto/OpenSSL: OpenSSL 3 refuses the
 * 3DES/RC2 files many ICP-Brasil ACs still ship — into its private key, the certificate of that
 * key and the chain the file carries (decision 019). Every failure is a CertificateRefusal with a
 * pt-BR message.
 */
import forge from "node-forge";
import { CertificateRefusal } from "./certificate-refusal.js";
import { withKdfBudget } from "./kdf-budget.js";

const { asn1, pki } = forge;

export interface OpenedPkcs12 {
  key: forge.pki.rsa.PrivateKey;
  holder: forge.pki.Certificate;
  /** Holder first, then each issuer found in the file (signature checked), up to a self-signed root. */
  chain: forge.pki.Certificate[];
  /** Whether the chain ends in a self-signed certificate. */
  chainReachesRoot: boolean;
}

const NOT_PKCS12 = "O arquivo não é um certificado digital PKCS#12 (.pfx ou .p12) válido.";

function refusalFor(error: unknown): CertificateRefusal {
  if (error instanceof CertificateRefusal) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/MAC could not be verified|wrong password|Invalid password|Failed to decrypt/i.test(message)) {
    return new CertificateRefusal("wrong_password", "Senha do certificado incorreta.");
  }
  if (/private key|RSAPrivateKey/i.test(message)) {
    return new CertificateRefusal(
      "unsupported_key",
      "A chave privada deste certificado não é RSA. Só aceitamos certificados A1 com chave RSA.",
    );
  }
  if (/unsupported|Unknown OID/i.test(message)) {
    return new CertificateRefusal(
      "unsupported_algorithm",
      "O arquivo usa um algoritmo de proteção que não conseguimos abrir. Exporte o certificado de novo (.pfx com senha).",
    );
  }
  return new CertificateRefusal("not_pkcs12", NOT_PKCS12);
}

function bagsOf(store: forge.pkcs12.Pkcs12Pfx, type: string): forge.pkcs12.Bag[] {
  return store.getBags({ bagType: type })[type] ?? [];
}

function sameKey(cert: forge.pki.Certificate, key: forge.pki.rsa.PrivateKey): boolean {
  const pub = cert.publicKey as Partial<forge.pki.rsa.PublicKey>;
  return !!pub.n && !!pub.e && pub.n.compareTo(key.n) === 0 && pub.e.compareTo(key.e) === 0;
}

function issuedBy(child: forge.pki.Certificate, parent: forge.pki.Certificate): boolean {
  try {
    return child.isIssuer(parent) && parent.verify(child);
  } catch {
    return false;
  }
}

function buildChain(
  holder: forge.pki.Certificate,
  certs: forge.pki.Certificate[],
): { chain: forge.pki.Certificate[]; reachesRoot: boolean } {
  const chain = [holder];
  let current = holder;
  while (chain.length <= 10) {
    if (issuedBy(current, current)) return { chain, reachesRoot: true };
    const parent = certs.find((candidate) => !chain.includes(candidate) && issuedBy(current, candidate));
    if (!parent) return { chain, reachesRoot: false };
    chain.push(parent);
    current = parent;
  }
  return { chain, reachesRoot: false };
}

export function openPkcs12(bytes: Uint8Array, password: string): OpenedPkcs12 {
  let store: forge.pkcs12.Pkcs12Pfx;
  try {
    // Strict DER, every byte part of it (forge's defaults: trailing bytes refuse the file).
    const der = asn1.fromDer(forge.util.createBuffer(Buffer.from(bytes).toString("binary")));
    store = withKdfBudget(() => forge.pkcs12.pkcs12FromAsn1(der, false, password));
  } catch (error) {
    throw refusalFor(error);
  }
  const keyBags = [...bagsOf(store, pki.oids.pkcs8ShroudedKeyBag!), ...bagsOf(store, pki.oids.keyBag!)];
  const certs = bagsOf(store, pki.oids.certBag!)
    .map((bag) => bag.cert)
    .filter((cert): cert is forge.pki.Certificate => !!cert);
  if (keyBags.length === 0) {
    throw new CertificateRefusal(
      "no_private_key",
      "O arquivo não contém a chave privada. Exporte o certificado A1 incluindo a chave privada (arquivo .pfx protegido por senha).",
    );
  }
  if (keyBags.length > 1) {
    throw new CertificateRefusal(
      "multiple_keys",
      "O arquivo contém mais de uma chave privada. Envie um arquivo com um único certificado A1.",
    );
  }
  const key = keyBags[0]!.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key || !key.n || !key.e) {
    throw new CertificateRefusal(
      "unsupported_key",
      "A chave privada deste certificado não é RSA. Só aceitamos certificados A1 com chave RSA.",
    );
  }
  const holder = certs.find((cert) => sameKey(cert, key));
  if (!holder) {
    throw new CertificateRefusal(
      "key_mismatch",
      certs.length === 0
        ? "O arquivo contém a chave privada, mas não o certificado. Exporte o certificado A1 completo (.pfx)."
        : "A chave privada do arquivo não corresponde a nenhum dos certificados dele.",
    );
  }
  const { chain, reachesRoot } = buildChain(holder, certs);
  return { key, holder, chain, chainReachesRoot: reachesRoot };
}
