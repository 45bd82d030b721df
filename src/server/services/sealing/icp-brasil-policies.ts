/**
 * ICP-Brasil signature policies for PDF (PAdES) that the signer can declare, as data (decisions 020, 081).
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
 * - Checked on 2026-12-07 against the policy files themselves, as published in demoiselle/signer
 *   (policy-engine artifacts, commit 89c54a31): the four files' SHA-256 are the `fileSha256` below
 *   and the last OCTET STRING of each is the `hash` below — AD-RT v1.3's included, now two sources.
 *   The AD-RC v1.4 and AD-RA v1.4 files (2.16.76.1.7.1.13.1.4 / 14.1.4, valid 2025-07-23 →
 *   2037-10-22) mandate the same signed attributes plus an unsigned signature time-stamp; their PDF
 *   rules (OIDs 2.16.76.1.8.1–3) ask for a DSS with /Certs and a /VRI per signature with its
 *   revocation values, and a /DocTimeStamp (ETSI.RFC3161) — AD-RA adds ITI's policy artifacts (the
 *   policy, the LPA and its signature) inside the DSS, which this server does not have (decision 081).
 */
import type { SignaturePolicy } from "./signature-policy.js";

export interface IcpBrasilPolicy extends SignaturePolicy {
  /** e.g. "PA_PAdES_AD_RB_v1_3". */
  name: string;
  /**
   * "AD-RB" (basic references), "AD-RT" (plus a signature time-stamp from an accredited ACT),
   * "AD-RC" (plus chain and revocation values in the file and a document time-stamp over it all),
   * "AD-RA" (plus ITI's policy artifacts, for archiving; recognised, never declared here).
   */
  kind: "AD-RB" | "AD-RT" | "AD-RC" | "AD-RA";
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
  // signet-pdf and the policy file itself (last OCTET STRING, see above) agree.
  hash: hex("21d6e8d9f85e5626dc71307337a7cabd6ffef8d085038746775cf0ce6ba4d3b5"),
  fileSha256: "92a972e7c292bb884e98e650773d9e9876994effb43eb36199b06bf2864a677c",
  uri: "http://politicas.icpbrasil.gov.br/PA_PAdES_AD_RT_v1_3.der",
  validFrom: new Date("2025-07-23T00:00:00Z"),
  validUntil: new Date("2037-10-22T00:00:00Z"),
});

/**
 * PAdES AD-RC v1.4: AD-RT, plus, in the PDF, a DSS with the signer's chain and revocation values and
 * a /VRI for the signature, and a document time-stamp over the whole file (our B-LTA, decision 053).
 */
export const PADES_AD_RC_V1_4: IcpBrasilPolicy = Object.freeze({
  name: "PA_PAdES_AD_RC_v1_4",
  kind: "AD-RC",
  oid: "2.16.76.1.7.1.13.1.4",
  hashAlgorithm: "sha256",
  hash: hex("712f18a9f0163c1e90da6ff0b7165543378a18a0f06d3cb21668067cac229bd2"),
  fileSha256: "defe0ce4a45be8d7bf0a62bfe7baba5329b7665e5585568de00b9f3e56c0ce83",
  uri: "http://politicas.icpbrasil.gov.br/PA_PAdES_AD_RC_v1_4.der",
  validFrom: new Date("2025-07-23T00:00:00Z"),
  validUntil: new Date("2037-10-22T00:00:00Z"),
});

/** PAdES AD-RA v1.4: AD-RC plus ITI's policy artifacts in the DSS. Only recognised by the verifier. */
export const PADES_AD_RA_V1_4: IcpBrasilPolicy = Object.freeze({
  name: "PA_PAdES_AD_RA_v1_4",
  kind: "AD-RA",
  oid: "2.16.76.1.7.1.14.1.4",
  hashAlgorithm: "sha256",
  hash: hex("ffa9fd474812f6ce63d625679c9ef235a6547b017be941b2c094aa868e67e123"),
  fileSha256: "b77680a623ba7b9757c38404d4759d966791338665ff5cf152c1c0917f97c548",
  uri: "http://politicas.icpbrasil.gov.br/PA_PAdES_AD_RA_v1_4.der",
  validFrom: new Date("2025-07-23T00:00:00Z"),
  validUntil: new Date("2037-10-22T00:00:00Z"),
});

export const ICP_BRASIL_PADES_POLICIES: readonly IcpBrasilPolicy[] = [
  PADES_AD_RB_V1_3,
  PADES_AD_RT_V1_3,
  PADES_AD_RC_V1_4,
  PADES_AD_RA_V1_4,
];

export function icpBrasilPolicyByOid(policyOid: string): IcpBrasilPolicy | undefined {
  return ICP_BRASIL_PADES_POLICIES.find((p) => p.oid === policyOid);
}

/** Just what the signer needs (the table's extra fields stay out of the CMS and of worker messages). */
export function policyForSigning(policy: IcpBrasilPolicy): SignaturePolicy {
  return { oid: policy.oid, hashAlgorithm: policy.hashAlgorithm, hash: policy.hash, uri: policy.uri };
}
