/**
 * Which PAdES level a signature reaches, and which policy it must declare for it (decisions 020,
 * 081). The policy is a signed attribute, so this is decided before signing, from what is known:
 *
 * - ICP-Brasil certificate, no time-stamp → **AD-RB** (PA_PAdES_AD_RB).
 * - ICP-Brasil certificate + time-stamp from an ICP-Brasil accredited ACT → **AD-RT**: the policy
 *   declared becomes PA_PAdES_AD_RT, whose only extra rule is that token. If the authority then
 *   fails, sealPdf throws a TsaError and the job retries: it never writes an AD-RT declaration
 *   without its token.
 * - Same, and every revocation list of the signer's chain was read just before signing (so the DSS
 *   will carry them with a /VRI, and the accredited ACT stamps the whole file after) → **AD-RC**
 *   (PA_PAdES_AD_RC v1.4). A document time-stamp that then fails makes the job retry, as above.
 * - ICP-Brasil certificate + time-stamp from a non-accredited authority → **PAdES B-T** keeping
 *   the AD-RB declaration: DOC-ICP-15.03's AD-RB mandates the signed attributes and forbids none
 *   of the unsigned ones, so the signature stays a conformant AD-RB for ICP-Brasil verifiers and
 *   gains an ETSI B-T time for everyone else; it is not AD-RT (that needs an accredited ACT).
 * - No ICP-Brasil policy (the instance seal, self-signed): **PAdES B-B**, or **B-T** with a token.
 */
import { ICP_BRASIL_PADES_POLICIES, type IcpBrasilPolicy, policyForSigning } from "./icp-brasil-policies.js";
import type { SignaturePolicy } from "./signature-policy.js";

export type SignatureLevelName = "AD-RB" | "AD-RT" | "AD-RC" | "PAdES B-B" | "PAdES B-T";

export interface SignatureLevel {
  level: SignatureLevelName;
  /** What to pass as SealOptions.policy (undefined: declare none). */
  policy: SignaturePolicy | undefined;
  /** Whether to pass SealOptions.timestamp (the authority is then required, not optional). */
  timestamp: boolean;
  /** pt-BR, for the registry page and logs. */
  description: string;
}

export interface SignatureLevelInput {
  /** The ICP-Brasil policy the signer's certificate allows (AD-RB or AD-RT), or none. */
  policy?: SignaturePolicy | null | undefined;
  /** A time-stamp authority is configured (TSA_URL). */
  timestamp: boolean;
  /** That authority is an ICP-Brasil accredited ACT (TSA_ICP_BRASIL). */
  tsaAccredited?: boolean | undefined;
  /**
   * Every revocation list of the signer's chain was read (status nao_revogado) and goes into the
   * DSS after the last signature, with the document time-stamp: the file will be AD-RC.
   */
  revocationEmbedded?: boolean | undefined;
}

/** The current policy of a kind (one per kind in the table). */
function current(kind: IcpBrasilPolicy["kind"]): IcpBrasilPolicy {
  return ICP_BRASIL_PADES_POLICIES.find((p) => p.kind === kind)!;
}

export function signatureLevel({
  policy,
  timestamp,
  tsaAccredited,
  revocationEmbedded,
}: SignatureLevelInput): SignatureLevel {
  if (!policy) {
    return timestamp
      ? {
          level: "PAdES B-T",
          policy: undefined,
          timestamp: true,
          description: "PAdES B-T (assinatura com carimbo do tempo)",
        }
      : { level: "PAdES B-B", policy: undefined, timestamp: false, description: "PAdES B-B (assinatura básica)" };
  }
  const rb = current("AD-RB");
  if (timestamp && tsaAccredited && revocationEmbedded) {
    return {
      level: "AD-RC",
      policy: policyForSigning(current("AD-RC")),
      timestamp: true,
      description:
        "ICP-Brasil AD-RC (referências completas: carimbo do tempo de ACT credenciada, cadeia e listas de revogação no arquivo e carimbo do tempo sobre o documento)",
    };
  }
  if (timestamp && tsaAccredited) {
    return {
      level: "AD-RT",
      policy: policyForSigning(current("AD-RT")),
      timestamp: true,
      description: "ICP-Brasil AD-RT (referência de tempo de ACT credenciada)",
    };
  }
  if (timestamp) {
    return {
      level: "PAdES B-T",
      policy: policyForSigning(rb),
      timestamp: true,
      description: "ICP-Brasil AD-RB com carimbo do tempo de autoridade não credenciada (PAdES B-T)",
    };
  }
  return {
    level: "AD-RB",
    policy: policyForSigning(rb),
    timestamp: false,
    description: "ICP-Brasil AD-RB (referência básica)",
  };
}
