/**
 * Who signs the final PDF, in order (DESIGN §3, decision 024):
 * 1. the responsible professional's ICP-Brasil A1, when they chose to sign with it (their party
 *    has metodo 'ICP-Brasil') and the same certificate they named is still active — AD-RB;
 * 2. the seal: the clinic's active ICP-Brasil certificate (its e-CNPJ) — AD-RB — else the
 *    instance seal (PAdES B-B).
 * With TSA_URL every signature carries a signatureTimeStampToken: AD-RT when the operator says the
 * authority is an ICP-Brasil ACT (TSA_ICP_BRASIL) and its certificate's chain, checked, reaches an
 * official root (decision 060) — then only such authorities stamp — PAdES B-T otherwise; AD-RC when,
 * besides, every list of the signer's chain was just read (they go in the DSS, decision 081). An
 * unreachable authority makes the job fail and retry: nothing is ever sealed as AD-RT without its stamp.
 */
import type { JobContext } from "../../jobs/job-context.js";
import type { PdfSignature } from "../../pdf-pool/pdf-pool.js";
import type { CertificateTrust } from "../../../pdf/signature-registry.js";
import { activeClinicCertificate, activeProfessionalCertificate } from "../certificates/load-signing-certificate.js";
import { officialRootOf, officialRootsFromEnv } from "../certificates/official-roots.js";
import { crlSourceFromEnv, ocspSourceFromEnv, revocationOf } from "../certificates/revocation/revocation-checker.js";
import { revokedReason } from "../../../shared/evidence/revocation.js";
import { PADES_AD_RB_V1_3, policyForSigning } from "../sealing/icp-brasil-policies.js";
import { instanceSeal } from "../sealing/instance-seal.js";
import type { SealMaterial } from "../sealing/seal-certificate.js";
import { type SignatureLevel, signatureLevel } from "../sealing/signature-level.js";
import { tsaAccreditations } from "../timestamping/tsa-accreditation.js";
import { type TsaConfig, tsaConfigFromEnv, TsaUnreachableError } from "../timestamping/tsa-client.js";
import type { FinalDocument } from "./final-pdf-input.js";

export interface FinalSigner {
  material: SealMaterial;
  /** certificados.id, or null for the instance seal. */
  certificateId: string | null;
  level: SignatureLevel;
  /** What the registry may say of the certificate (decision 041). */
  trust: CertificateTrust;
}

export interface FinalSigners {
  professional: FinalSigner | null;
  seal: FinalSigner & { kind: "clinica" | "instancia" };
  /** Why the professional's ICP-Brasil signature is missing although they chose it (logged, printed). */
  professionalMissing: string | null;
  /** Why the clinic's active certificate did not seal: revoked (decision 048; logged, printed). */
  clinicSealMissing: string | null;
  /**
   * The revocation lists read just before sealing, kept for the sealed PDF's DSS instead of being
   * thrown away (decision 053); the chains come from the signatures themselves.
   */
  crls: Buffer[];
  /** The OCSP answers read with them (decision 082). */
  ocsps: Buffer[];
  /** The authorities that stamp the signatures (only checked ACTs when they declare AD-RT). */
  tsa: TsaConfig | undefined;
  /** What the check of the authority found (decision 060); null without TSA_ICP_BRASIL. */
  timestampAuthority: TimestampAuthorityNote | null;
}

export interface TimestampAuthorityNote {
  /** Common names of the authorities (or their URLs when no token came back). */
  names: string[];
  accredited: boolean;
  root: string | null;
  /** Why none is taken as an ACT (pt-BR). */
  reason: string | null;
}

/** The certificate fingerprint the professional named when they signed (party_signed event). */
export function chosenProfessionalCertificate(document: FinalDocument): string | null {
  const party = document.parties.find((p) => p.papel === "profissional");
  if (!party || party.metodo_assinatura !== "ICP-Brasil") return null;
  const event = document.events.find(
    (e) => e.action === "document.party_signed" && (e.data as { papel?: string } | null)?.papel === "profissional",
  );
  const sha256 = (event?.data as { certificado_sha256?: unknown } | null)?.certificado_sha256;
  return typeof sha256 === "string" ? sha256 : null;
}

export async function finalSigners(
  ctx: Pick<JobContext, "db" | "secretBox" | "env">,
  tenantId: string,
  document: FinalDocument,
  now: Date,
): Promise<FinalSigners> {
  const configured = tsaConfigFromEnv(ctx.env);
  const roots = officialRootsFromEnv(ctx.env);
  let tsa = configured;
  let timestampAuthority: TimestampAuthorityNote | null = null;
  if (configured && ctx.env.TSA_ICP_BRASIL) {
    const checks = await tsaAccreditations(configured, roots, now);
    const accredited = checks.filter((c) => c.accredited);
    if (accredited.length > 0) {
      tsa = {
        ...configured,
        urls: accredited.map((c) => c.url),
        // The real tokens must come from the very certificates the probe checked (a relay could differ).
        acceptedCertificates: accredited.flatMap((c) => (c.certificateSha256 ? [c.certificateSha256] : [])),
        // …and under an ICP-Brasil time-stamp policy, as the probe's was (decision 078).
        requireIcpBrasilPolicy: true,
      };
      timestampAuthority = {
        names: accredited.map((c) => c.authority ?? c.url),
        accredited: true,
        root: accredited[0]!.root,
        reason: null,
      };
    } else if (roots && checks.some((c) => !c.authority)) {
      // No authority answered the check: wait and try again rather than seal with a lower level.
      throw new TsaUnreachableError(checks.map((c) => c.reason).join("; "));
    } else {
      timestampAuthority = {
        names: checks.map((c) => c.authority ?? c.url),
        accredited: false,
        root: null,
        reason: checks[0]?.reason ?? null,
      };
    }
  }
  // The level is per signer: AD-RC needs that signer's own lists (decision 081).
  const icpLevel = (trust: CertificateTrust & { kind: "icp" }) =>
    signatureLevel({
      policy: policyForSigning(PADES_AD_RB_V1_3),
      timestamp: !!tsa,
      tsaAccredited: timestampAuthority?.accredited === true,
      revocationEmbedded: trust.revocation?.status === "nao_revogado",
    });
  const crl = crlSourceFromEnv(ctx.env);
  const ocsp = ocspSourceFromEnv(ctx.env);
  const crls: Buffer[] = [];
  const ocsps: Buffer[] = [];
  // The root, then the authorities' revocation lists, read just before signing (decision 048).
  const icpTrust = async (material: SealMaterial): Promise<CertificateTrust & { kind: "icp" }> => {
    const officialRoot = officialRootOf(material.chainDer, roots);
    // The holder, then its issuers: every link but the root is looked up.
    const chain = material.chainDer ? [material.certificateDer, ...material.chainDer] : undefined;
    return {
      kind: "icp",
      officialRoot,
      revocation: await revocationOf(chain, officialRoot, crl, now, { crls, ocsps, ocsp }),
    };
  };

  let professional: FinalSigner | null = null;
  let professionalMissing: string | null = null;
  const chosen = chosenProfessionalCertificate(document);
  const physicianId = document.contrato.medico_responsavel_id;
  if (chosen && physicianId) {
    const certificate = await activeProfessionalCertificate(ctx.db, ctx.secretBox, tenantId, physicianId, now);
    if (certificate && certificate.icpBrasil && certificate.material.fingerprintSha256 === chosen) {
      const trust = await icpTrust(certificate.material);
      if (trust.revocation?.status === "revogado") {
        professionalMissing = revokedReason(
          trust.revocation,
          certificate.material.commonName,
          "o certificado ICP-Brasil escolhido pelo profissional",
        );
      } else {
        professional = {
          material: certificate.material,
          certificateId: certificate.id,
          level: icpLevel(trust),
          trust,
        };
      }
    } else {
      professionalMissing =
        "o certificado ICP-Brasil escolhido pelo profissional não está mais ativo (removido, substituído ou vencido)";
    }
  }

  const clinic = await activeClinicCertificate(ctx.db, ctx.secretBox, tenantId, now);
  const clinicTrust = clinic && clinic.icpBrasil ? await icpTrust(clinic.material as SealMaterial) : null;
  const clinicSealMissing =
    clinic && clinicTrust?.revocation?.status === "revogado"
      ? revokedReason(clinicTrust.revocation, clinic.material.commonName)
      : null;
  const seal =
    clinic && clinicTrust && !clinicSealMissing
      ? {
          material: clinic.material as SealMaterial,
          certificateId: clinic.id,
          level: icpLevel(clinicTrust),
          kind: "clinica" as const,
          trust: clinicTrust,
        }
      : {
          material: (await instanceSeal(ctx.db, ctx.secretBox, now)).material,
          certificateId: null,
          level: signatureLevel({ policy: null, timestamp: !!tsa }),
          kind: "instancia" as const,
          trust: { kind: "instancia" } as const,
        };
  return { professional, seal, professionalMissing, clinicSealMissing, crls, ocsps, tsa, timestampAuthority };
}

/** The PAdES signatures to apply, in order, with the options their level asks for. */
export function pdfSignatures(
  signers: FinalSigners,
  ctx: Pick<JobContext, "env" | "origin">,
  now: Date,
): PdfSignature[] {
  const tsa = signers.tsa;
  const optionsOf = (signer: FinalSigner, reason: string): PdfSignature => ({
    material: signer.material,
    options: {
      signingTime: now,
      contactInfo: ctx.origin,
      reason,
      ...(signer.level.policy ? { policy: signer.level.policy } : {}),
      ...(signer.level.timestamp && tsa ? { timestamp: tsa } : {}),
    },
  });
  return [
    ...(signers.professional ? [optionsOf(signers.professional, "Declaração do profissional responsável")] : []),
    optionsOf(signers.seal, "Documento assinado eletronicamente"),
  ];
}
