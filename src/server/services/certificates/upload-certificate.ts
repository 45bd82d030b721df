/**
 * POST /api/certificates (spec part 1 §2 'Novo Certificado', §5; decision 019). The file is
 * opened and checked before anything is kept; a refused file leaves only its audit event. The
 * PKCS#12 and its password are stored sealed with the instance key, never returned.
 *
 * - titular 'clinica' (owner, admin): the clinic's certificate, normally an e-CNPJ; linked to the
 *   clinic when its CNPJ is the clinic's, else accepted with a warning.
 * - titular 'profissional' (owner, profissional, pro_saude): the uploader's own e-CPF, whose CPF
 *   must be the one on their profile — otherwise refused: a professional's certificate signs in
 *   their name, so nobody may register someone else's as their own.
 * A new active certificate of the same holder replaces (deactivates) the previous one.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { certificados, profiles, tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { formatCnpj } from "../../../shared/br/cnpj.js";
import { capitalizeFirst } from "../../../shared/format/index.js";
import { rootCheckWarning } from "../../../shared/certificates/root-check.js";
import { revokedReason, type RevocationResult } from "../../../shared/evidence/revocation.js";
import { ERRORS } from "../../../shared/errors.js";
import { MAX_CERTIFICATE_FILE_BYTES } from "../../../shared/reference/limits.js";
import type { CertificateUploadInput, CertificateUploadResult } from "../../../shared/schemas/certificates.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { can, type Actor } from "../../policies/roles.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { CertificateRefusal } from "./certificate-refusal.js";
import { sealCertificateSecret } from "./certificate-secret.js";
import { findCertificates } from "./find-certificates.js";
import { officialRootOf } from "./official-roots.js";
import { revocationOf, type CertificateChecks } from "./revocation/revocation-checker.js";
import { parseCertificateFile, type ParsedCertificate } from "./parse-certificate-file.js";
import { assertPasswordAttemptsLeft } from "./password-attempts.js";

export interface UploadContext {
  ip?: string;
  userAgent?: string;
}

type Outcome = { ok: CertificateUploadResult } | { refused: CertificateRefusal };

const NOT_AN_ECPF =
  "Como certificado pessoal, envie o seu e-CPF (certificado de pessoa física). Um e-CNPJ é da clínica: o proprietário ou um administrador o envia como certificado da clínica.";

function authorizeTitular(actor: Actor, titular: CertificateUploadInput["titular"]): void {
  const allowed =
    titular === "clinica" ? can(actor, "certificates.manageClinic") : can(actor, "certificates.manageOwn");
  if (!allowed) throw new AppError("CERTIFICATES_FORBIDDEN");
}

/** Checks that need the clinic's data; returns the warnings to show and the links to keep. */
async function linksAndWarnings(
  tx: Tx,
  actor: Actor,
  titular: CertificateUploadInput["titular"],
  parsed: ParsedCertificate,
): Promise<{ linkedProfileId: string | null; linkedClinic: boolean; warnings: string[] }> {
  const warnings: string[] = [];
  if (titular === "profissional") {
    if (parsed.holderKind !== "e-CPF") throw new CertificateRefusal("not_an_ecpf", NOT_AN_ECPF);
    const [me] = await tx
      .select({ cpf: profiles.cpf })
      .from(profiles)
      .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, actor.profileId)));
    if (!parsed.cpf || parsed.cpf !== me?.cpf)
      throw new CertificateRefusal("cpf_mismatch", ERRORS.CERTIFICATE_NOT_YOURS.message);
    if (!parsed.icpBrasil) warnings.push(NOT_ICP_PROFESSIONAL);
    return { linkedProfileId: actor.profileId, linkedClinic: false, warnings };
  }
  let linkedProfileId: string | null = null;
  let linkedClinic = false;
  if (parsed.holderKind === "e-CNPJ") {
    const [tenant] = await tx.select({ cnpj: tenants.cnpj }).from(tenants).where(eq(tenants.id, actor.tenantId));
    linkedClinic = !!parsed.cnpj && parsed.cnpj === tenant?.cnpj;
    if (!linkedClinic) {
      warnings.push(
        tenant?.cnpj
          ? `O CNPJ deste certificado (${parsed.cnpj ? formatCnpj(parsed.cnpj) : "ilegível"}) não é o CNPJ cadastrado da clínica (${formatCnpj(tenant.cnpj)}). Confira se é o certificado certo.`
          : "A clínica não tem CNPJ cadastrado: não foi possível conferir o CNPJ deste certificado.",
      );
    }
  } else if (parsed.holderKind === "e-CPF") {
    if (parsed.cpf) {
      const [person] = await tx
        .select({ id: profiles.id })
        .from(profiles)
        .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.cpf, parsed.cpf)));
      linkedProfileId = person?.id ?? null;
    }
    warnings.push(
      linkedProfileId
        ? "Este é um e-CPF (pessoa física): como certificado da clínica, os documentos serão selados em nome dessa pessoa."
        : "Este é um e-CPF (pessoa física) de alguém que não é usuário da clínica: os documentos serão selados em nome dessa pessoa.",
    );
  } else {
    warnings.push("Não encontramos neste certificado o CNPJ nem o CPF do titular (campos ICP-Brasil).");
  }
  if (!parsed.icpBrasil) warnings.push(NOT_ICP_CLINIC);
  return { linkedProfileId, linkedClinic, warnings };
}

/**
 * What a certificate that is not ICP-Brasil is used for: nothing — the final PDF is signed only with
 * ICP-Brasil certificates (final-signers.ts), so the warning says so instead of promising a signature.
 */
export const NOT_ICP_PROFESSIONAL =
  "Este certificado não se apresenta como ICP-Brasil: ele fica guardado, mas o Consentir não assina com ele — a assinatura com certificado digital só é oferecida com um e-CPF ICP-Brasil.";
export const NOT_ICP_CLINIC =
  "Este certificado não se apresenta como ICP-Brasil: ele fica guardado, mas o Consentir não sela documentos com ele — os PDFs finais continuam selados pelo selo desta instância.";

/** The list could not be read now: said, not refused — it is read again before each sealing. */
function revocationWarning(revocation: RevocationResult): string | null {
  if (revocation.status !== "indisponivel") return null;
  return `Não foi possível consultar agora a lista de revogação (LCR) da autoridade certificadora: ${revocation.motivo}. A consulta é feita de novo antes de cada selagem.`;
}

export interface UploadCertificateOptions {
  db: Db;
  secretBox: SecretBox;
  checks: CertificateChecks;
  actor: Actor;
  input: CertificateUploadInput;
  context: UploadContext;
  now?: Date;
}

export async function uploadCertificate({
  db,
  secretBox,
  checks,
  actor,
  input,
  context,
  now = new Date(),
}: UploadCertificateOptions): Promise<CertificateUploadResult> {
  authorizeTitular(actor, input.titular);
  const bytes = Buffer.from(input.arquivo_base64, "base64");
  if (bytes.length > MAX_CERTIFICATE_FILE_BYTES) throw new AppError("CERTIFICATE_TOO_LARGE");
  const ownerProfileId = input.titular === "profissional" ? actor.profileId : null;
  const audit = {
    tenantId: actor.tenantId,
    actorProfileId: actor.profileId,
    ip: context.ip,
    userAgent: context.userAgent,
  };

  const outcome = await withTenant(db, actor.tenantId, async (tx): Promise<Outcome> => {
    await assertPasswordAttemptsLeft(tx, actor.tenantId, actor.profileId);
    // One upload per holder at a time: "at most one active" is settled here, the index is the last word.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`certificados:titular:${actor.tenantId}:${ownerProfileId ?? "clinica"}`}))`,
    );
    let parsed: ParsedCertificate;
    let links: Awaited<ReturnType<typeof linksAndWarnings>>;
    let revocation: RevocationResult;
    try {
      parsed = parseCertificateFile(bytes, input.senha, now);
      links = await linksAndWarnings(tx, actor, input.titular, parsed);
      // Read here, inside the upload's transaction: an upload is rare, and waits at most CRL_TIMEOUT_MS per list.
      revocation = await revocationOf(
        parsed.chainDer,
        officialRootOf(parsed.chainFingerprints, checks.roots),
        checks.crl,
        now,
        { ocsp: checks.ocsp ?? null },
      );
      if (revocation.status === "revogado") {
        throw new CertificateRefusal(
          "revoked",
          `${capitalizeFirst(revokedReason(revocation, parsed.commonName))}: não pode assinar documentos. Envie um certificado válido.`,
        );
      }
    } catch (error) {
      if (!(error instanceof CertificateRefusal)) throw error;
      // Kept even though nothing else is: the refusal is evidence, and wrong passwords are counted.
      await recordAuditEvent(tx, audit, {
        action: "certificate.upload_refused",
        entityType: "certificado",
        data: { motivo: error.reason, nome_arquivo: input.nome_arquivo, titular: input.titular },
      });
      return { refused: error };
    }

    const holder = ownerProfileId
      ? eq(certificados.owner_profile_id, ownerProfileId)
      : isNull(certificados.owner_profile_id);
    const [previous] = await tx
      .select({ id: certificados.id, fingerprint: certificados.fingerprint_sha256, alias: certificados.alias })
      .from(certificados)
      .where(and(eq(certificados.tenant_id, actor.tenantId), eq(certificados.is_active, true), holder))
      .for("update");
    if (previous?.fingerprint === parsed.fingerprintSha256) throw new AppError("CERTIFICATE_DUPLICATE");
    if (previous) {
      await tx
        .update(certificados)
        .set({ is_active: false, removed_at: now, removed_by: actor.profileId })
        .where(and(eq(certificados.tenant_id, actor.tenantId), eq(certificados.id, previous.id)));
    }
    const [row] = await tx
      .insert(certificados)
      .values({
        tenant_id: actor.tenantId,
        owner_profile_id: ownerProfileId,
        alias: input.alias,
        descricao: input.descricao?.trim() || null,
        original_filename: input.nome_arquivo,
        secret_encrypted: sealCertificateSecret(secretBox, bytes, input.senha),
        cn: parsed.commonName,
        subject: parsed.subject,
        issuer: parsed.issuer,
        issuer_cn: parsed.issuerCommonName,
        serial_number: parsed.serialNumber,
        not_before: parsed.notBefore,
        vence_em: parsed.notAfter,
        fingerprint_sha256: parsed.fingerprintSha256,
        key_usage: parsed.keyUsage,
        icp_brasil: parsed.icpBrasil,
        policies: parsed.policies,
        holder_kind: parsed.holderKind,
        cpf: parsed.cpf,
        cnpj: parsed.cnpj,
        responsible_name: parsed.responsibleName,
        linked_profile_id: links.linkedProfileId,
        linked_clinic: links.linkedClinic,
        chain_fingerprints: parsed.chainFingerprints,
        uploaded_by: actor.profileId,
      })
      .returning({ id: certificados.id });
    if (!row) throw new Error("certificados insert returned no row");
    if (previous) {
      await recordAuditEvent(tx, audit, {
        action: "certificate.replaced",
        entityType: "certificado",
        entityId: previous.id,
        data: { alias: previous.alias, fingerprint_sha256: previous.fingerprint, substituido_por: row.id },
      });
    }
    await recordAuditEvent(tx, audit, {
      action: "certificate.uploaded",
      entityType: "certificado",
      entityId: row.id,
      data: {
        alias: input.alias,
        titular: input.titular,
        cn: parsed.commonName,
        fingerprint_sha256: parsed.fingerprintSha256,
        vence_em: parsed.notAfter.toISOString(),
        icp_brasil: parsed.icpBrasil,
        holder_kind: parsed.holderKind,
        substitui: previous?.id ?? null,
        revogacao:
          revocation.status === "nao_consultado"
            ? { status: revocation.status }
            : { status: revocation.status, consultado_em: revocation.consultadoEm },
      },
    });
    const [certificado] = await findCertificates({
      tx,
      tenantId: actor.tenantId,
      roots: checks.roots,
      where: eq(certificados.id, row.id),
      limit: 1,
    });
    if (!certificado) throw new Error("uploaded certificate not found");
    const avisos = [
      ...links.warnings,
      rootCheckWarning(certificado.raiz, certificado.icp_brasil),
      revocationWarning(revocation),
    ].filter((aviso) => aviso !== null);
    return { ok: { certificado, avisos, substituido_id: previous?.id ?? null } };
  });

  if ("ok" in outcome) return outcome.ok;
  const { refused } = outcome;
  if (refused.reason === "wrong_password") {
    throw new AppError("CERTIFICATE_WRONG_PASSWORD", undefined, {
      issues: [{ path: "senha", message: refused.message }],
      details: { motivo: refused.reason },
    });
  }
  if (refused.reason === "cpf_mismatch")
    throw new AppError("CERTIFICATE_NOT_YOURS", undefined, { details: { motivo: refused.reason } });
  throw new AppError("CERTIFICATE_INVALID", refused.message, {
    issues: [{ path: "arquivo_base64", message: refused.message }],
    details: { motivo: refused.reason },
  });
}
