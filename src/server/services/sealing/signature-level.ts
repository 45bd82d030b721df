/**
 * Which PAdES level a signature reaches, and which policy it must declare for it (decision 020).
 * The policy is a signed attribute, so this is decided before signing, from the configuration:
 *
 * - ICP-Brasil certificate, no time-stamp → **AD-RB** (PA_PAdES_AD_RB).
 * - ICP-Brasil certificate + time-stamp from an ICP-Brasil accredited ACT → **AD-RT**: the policy
 *   declared becomes PA_PAdES_AD_RT (same version), whose only extra rule is that token. If the
 *   authority then fails, sealPdf throws a TsaError and the job retries: it never writes an AD-RT
 *   declaration without its token.
 * - ICP-Brasil certificate + time-stamp from a non-accredited authority → **PAdES B-T** keeping
 *   the AD-RB declaration: DOC-ICP-15.03's AD-RB mandates the signed attributes and forbids none
 *   of the unsigned ones, so the signature stays a conformant AD-RB for ICP-Brasil verifiers and
 *   gains an ETSI B-T time for everyone else; it is not AD-RT (that needs an accredited ACT).
 * - No ICP-Brasil policy (the instance seal, self-signed): **PAdES B-B**, or **B-T** with a token.
 */
import {
  ICP_BRASIL_PADES_POLICIES,
  type IcpBrasilPolicy,
  PADES_AD_RB_V1_3,
  PADES_AD_RT_V1_3,
  policyForSigning,
} from "./icp-brasil-policies.js";
import type { SignaturePolicy } from "./signature-policy.js";

export type SignatureLevelName = "AD-RB" | "AD-RT" | "PAdES B-B" | "PAdES B-T";

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
}

/** The AD-RB / AD-RT pair of the same version as `policy` (v1.3 when it is not in the table). */
function pairOf(policy: SignaturePolicy): { rb: IcpBrasilPolicy; rt: IcpBrasilPolicy } {
  const known = ICP_BRASIL_PADES_POLICIES.find((p) => p.oid === policy.oid);
  if (!known) return { rb: PADES_AD_RB_V1_3, rt: PADES_AD_RT_V1_3 };
  const version = known.name.slice(known.name.lastIndexOf("_v"));
  const find = (kind: IcpBrasilPolicy["kind"]) =>
    ICP_BRASIL_PADES_POLICIES.find((p) => p.kind === kind && p.name.endsWith(version))!;
  return { rb: find("AD-RB"), rt: find("AD-RT") };
}

export function signatureLevel({ policy, timestamp, tsaAccredited }: SignatureLevelInput): SignatureLevel {
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
  const { rb, rt } = pairOf(policy);
  if (timestamp && tsaAccredited) {
    return {
      level: "AD-RT",
      policy: policyForSigning(rt),
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
