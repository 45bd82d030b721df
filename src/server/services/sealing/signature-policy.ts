/**
 * The signature-policy-identifier signed attribute (CAdES, RFC 5126 §5.8.1 / ETSI TS 101 733), as
 * ICP-Brasil asks for it in its PAdES policies (DOC-ICP-15.03, decision 020):
 *
 *   SignaturePolicyId ::= SEQUENCE {
 *     sigPolicyId          OBJECT IDENTIFIER,
 *     sigPolicyHash        OtherHashAlgAndValue,  -- SEQUENCE { AlgorithmIdentifier, OCTET STRING }
 *     sigPolicyQualifiers  SEQUENCE SIZE (1..MAX) OF SigPolicyQualifierInfo OPTIONAL }
 *   SigPolicyQualifierInfo ::= SEQUENCE { sigPolicyQualifierId OID (id-spq-ets-uri), IA5String }
 *
 * The attribute value is the SignaturePolicyIdentifier CHOICE, whose signaturePolicyId arm is the
 * SEQUENCE above written as is (no tag of its own).
 */
import { OID, octetString, oid, ia5String, sequence } from "./der.js";

export interface SignaturePolicy {
  /** The policy's OID, e.g. 2.16.76.1.7.1.11.1.3 (PA_PAdES_AD_RB_v1_3). */
  oid: string;
  hashAlgorithm: "sha256";
  /**
   * The hash stated inside the policy file (its signPolicyHash), not the SHA-256 of the file: that
   * one is what the LPA lists so a verifier can check it downloaded the right document.
   */
  hash: Buffer;
  /** Where the policy document is published (the id-spq-ets-uri qualifier). */
  uri: string;
}

/**
 * DER of the attribute value. The AlgorithmIdentifier carries no parameters: SHA-2 identifiers
 * are written without them (RFC 5754 §2), as ICP-Brasil's own policy files do.
 */
export function signaturePolicyIdentifier(policy: SignaturePolicy): Buffer {
  return sequence(
    oid(policy.oid),
    sequence(sequence(oid(OID.sha256)), octetString(Buffer.from(policy.hash))),
    sequence(sequence(oid(OID.spqEtsUri), ia5String(policy.uri))),
  );
}
