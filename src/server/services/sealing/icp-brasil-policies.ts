/**
 * ICP-Brasil signature policies for PDF (PAdES) that the signer can declare, as data (decision 020).
 *
 * Source of each value (http://politicas.icpbrasil.gov.br/ is not reachable from here; every value
 * below was read in public implementations that parsed the official files — several independent
 * ones agree on AD-RB v1.3's hash, only one states AD-RT v1.3's, see below):
 * - OIDs, URIs, validity: ITI's list of approved PAdES policies (LPA_PAdES.der), as transcribed in
 *   lsnepomuceno/signet-pdf src/IcpBrasil/Enums/SignaturePolicy.php (read from the LPA on
 *   2026-08-29; both v1.3 policies valid 2025-07-23 → 2037-10-22, replacing v1.2 on 2025-07-23).
 * - `hash`: the signPolicyHash stored *inside* each policy file (third field of its
 *   SignaturePolicy SEQUENCE, the SHA-256 of the DER of signPolicyHashAlg + signPolicyInfo). That
 *   is what the sigPolicyId attribute must carry and what ITI's Verificador de Conformidade
 *   compares ("O valor do resumo criptográfico não é equivalente ao esperado" when the file's
 *   SHA-256 is used instead). Same file, later version (commit 9fe057e0…), plus, for AD-RB v1.3,
 *   setasign's SetaPDF-Signer ICP-Brasil demo and several Brazilian projects reporting an
 *   "Aprovado" VALIDAR ITI report with this value.
 * - `fileSha256`: SHA-256 of the whole .der, as the LPA lists it (for checking a downloaded copy,
 *   never for the attribute).
 */
import type { SignaturePolicy } from "./signature-policy.js";

export interface IcpBrasilPolicy extends SignaturePolicy {
  /** e.g. "PA_PAdES_AD_RB_v1_3". */
  name: string;
  /** "AD-RB" (basic references) or "AD-RT" (with a signature time-stamp from an accredited ACT). */
  kind: "AD-RB" | "AD-RT";
  /** SHA-256 of the policy file as the LPA lists it; not what goes in the signature. */
  fileSha256: string;
  validFrom: Date;
  validUntil: Date;
}

const hex = (value: string) => Buffer.from(value, "hex");

/** PAdES AD-RB v1.3 (DOC-ICP-15.03): contentType, messageDigest, signingCertificateV2, sigPolicyId. */
export const PADES_AD_RB_V1_3: IcpBrasilPolicy = Object.freeze({
  name: "PA_PAdES_AD_RB_v1_3",
  kind: "AD-RB",
  oid: "2.16.76.1.7.1.11.1.3",
  hashAlgorithm: "sha256",
  hash: hex("23e4be4b9b362172e4ebb0e72b86a133ece5aad843d8651c6e38a0ba3f08fc60"),
  fileSha256: "23da544aef71f7a75dc85fa6e17a83875741e4baef41ec178258a5c86ace54dd",
  uri: "http://politicas.icpbrasil.gov.br/PA_PAdES_AD_RB_v1_3.der",
  validFrom: new Date("2025-07-23T00:00:00Z"),
  validUntil: new Date("2037-10-22T00:00:00Z"),
});

/** PAdES AD-RT v1.3: AD-RB plus the unsigned signatureTimeStampToken from an accredited ACT. */
export const PADES_AD_RT_V1_3: IcpBrasilPolicy = Object.freeze({
  name: "PA_PAdES_AD_RT_v1_3",
  kind: "AD-RT",
  oid: "2.16.76.1.7.1.12.1.3",
  hashAlgorithm: "sha256",
  // Only one source (signet-pdf, read from the policy file) states this one: check it against the
  // file (openssl asn1parse, last OCTET STRING) or VALIDAR ITI before the first production AD-RT.
  hash: hex("21d6e8d9f85e5626dc71307337a7cabd6ffef8d085038746775cf0ce6ba4d3b5"),
  fileSha256: "92a972e7c292bb884e98e650773d9e9876994effb43eb36199b06bf2864a677c",
  uri: "http://politicas.icpbrasil.gov.br/PA_PAdES_AD_RT_v1_3.der",
  validFrom: new Date("2025-07-23T00:00:00Z"),
  validUntil: new Date("2037-10-22T00:00:00Z"),
});

export const ICP_BRASIL_PADES_POLICIES: readonly IcpBrasilPolicy[] = [PADES_AD_RB_V1_3, PADES_AD_RT_V1_3];

export function icpBrasilPolicyByOid(policyOid: string): IcpBrasilPolicy | undefined {
  return ICP_BRASIL_PADES_POLICIES.find((p) => p.oid === policyOid);
}

/** Just what the signer needs (the table's extra fields stay out of the CMS and of worker messages). */
export function policyForSigning(policy: IcpBrasilPolicy): SignaturePolicy {
  return { oid: policy.oid, hashAlgorithm: policy.hashAlgorithm, hash: policy.hash, uri: policy.uri };
}
