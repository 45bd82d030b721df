/**
 * Intake of an uploaded A1 (decision 019): opens the PKCS#12, refuses what cannot sign (expired,
 * not yet valid, no digitalSignature/nonRepudiation, non-RSA or short key) and reads what the list
 * and the signer need — names, serial, validity, key usage, the ICP-Brasil identifiers of
 * subjectAltName and whether it presents itself as ICP-Brasil. Nothing is stored here.
 */
import { dateInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import { MAX_CERTIFICATE_FILE_BYTES } from "../../../shared/reference/limits.js";
import {
  hasIcpBrasilPolicy,
  type HolderKind,
  icpBrasilHolder,
} from "../../../shared/certificates/icp-brasil-identifiers.js";
import { sha256Hex } from "../../lib/content-hash.js";
import { CertificateRefusal } from "./certificate-refusal.js";
import { openPkcs12 } from "./open-pkcs12.js";
import { altNameEmail, derOf, isIcpBrasilName, keyUsage, names, otherNames, policyOids } from "./x509-fields.js";

/** Shortest RSA key accepted (ICP-Brasil A1 keys are 2048 bits). */
export const MIN_RSA_BITS = 2048;

export interface ParsedCertificate {
  commonName: string;
  subject: string;
  issuer: string;
  issuerCommonName: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  fingerprintSha256: string;
  keyUsage: string[];
  policies: string[];
  icpBrasil: boolean;
  holderKind: HolderKind;
  cpf: string | null;
  cnpj: string | null;
  responsibleName: string | null;
  email: string | null;
  /** SHA-256 of each certificate of the chain, holder first. */
  chainFingerprints: string[];
  /** The chain itself (DER), holder first: its revocation lists are read from it (decision 048). */
  chainDer: Buffer[];
}

/** dd/mm/aaaa in São Paulo. */
function formatSaoPauloDate(instant: Date): string {
  const [year, month, day] = dateInSaoPaulo(instant).split("-");
  return `${day}/${month}/${year}`;
}

export function parseCertificateFile(bytes: Uint8Array, password: string, now: Date = new Date()): ParsedCertificate {
  if (bytes.length === 0 || bytes.length > MAX_CERTIFICATE_FILE_BYTES) {
    throw new CertificateRefusal("not_pkcs12", "O arquivo não é um certificado digital PKCS#12 (.pfx ou .p12) válido.");
  }
  const opened = openPkcs12(bytes, password);
  const { holder, key } = opened;

  if (key.n.bitLength() < MIN_RSA_BITS) {
    throw new CertificateRefusal(
      "weak_key",
      `A chave deste certificado tem menos de ${MIN_RSA_BITS} bits e não é aceita para assinatura.`,
    );
  }
  const notBefore = holder.validity.notBefore;
  const notAfter = holder.validity.notAfter;
  if (notAfter.getTime() <= now.getTime()) {
    throw new CertificateRefusal(
      "expired",
      `O certificado venceu em ${formatSaoPauloDate(notAfter)}. Envie um certificado dentro da validade.`,
    );
  }
  if (notBefore.getTime() > now.getTime()) {
    throw new CertificateRefusal(
      "not_yet_valid",
      `O certificado ainda não é válido: a validade começa em ${formatSaoPauloDate(notBefore)}.`,
    );
  }
  const usage = keyUsage(holder);
  if (usage !== null && !usage.includes("digitalSignature") && !usage.includes("nonRepudiation")) {
    throw new CertificateRefusal(
      "no_signing_usage",
      "Este certificado não serve para assinar documentos: o uso da chave não inclui assinatura digital nem não repúdio.",
    );
  }

  const der = derOf(holder);
  const policies = policyOids(holder);
  const root = opened.chain[opened.chain.length - 1]!;
  const holderData = icpBrasilHolder(otherNames(holder));
  return {
    ...names(der),
    notBefore,
    notAfter,
    fingerprintSha256: sha256Hex(der),
    keyUsage: usage ?? [],
    policies,
    icpBrasil: hasIcpBrasilPolicy(policies) && opened.chainReachesRoot && isIcpBrasilName(root),
    holderKind: holderData.kind,
    cpf: holderData.cpf,
    cnpj: holderData.cnpj,
    responsibleName: holderData.responsibleName,
    email: altNameEmail(holder),
    chainFingerprints: opened.chain.map((cert) => sha256Hex(derOf(cert))),
    chainDer: opened.chain.map((cert) => derOf(cert)),
  };
}
