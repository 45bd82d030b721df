import type { certificados } from "../../db/schema.js";
import type { Certificate } from "../../shared/schemas/certificates.js";
import { certificateRoot } from "../../shared/certificates/root-check.js";
import { maskCpf } from "../../shared/signing-rules.js";
import { officialRootOf, type OfficialRoots } from "../services/certificates/official-roots.js";

type CertificateRow = typeof certificados.$inferSelect;

/** Names of the profiles a certificate points at (owner, linked user, uploader). */
export interface CertificateNames {
  ownerNome: string | null;
  linkedNome: string | null;
  uploadedByNome: string | null;
}

/**
 * What leaves the server about a certificate: never the file, the password or the full CPF.
 * `roots`: the official ICP-Brasil roots the server was given, or null (decision 047).
 */
export function presentCertificate(
  row: CertificateRow,
  names: CertificateNames,
  roots: OfficialRoots | null,
): Certificate {
  return {
    id: row.id,
    alias: row.alias,
    descricao: row.descricao,
    tipo: row.tipo,
    provider: row.provider,
    nome_arquivo: row.original_filename,
    titular: row.owner_profile_id ? "profissional" : "clinica",
    profissional: row.owner_profile_id ? { id: row.owner_profile_id, nome: names.ownerNome ?? "" } : null,
    cn: row.cn,
    subject: row.subject,
    issuer: row.issuer,
    issuer_cn: row.issuer_cn,
    serial_number: row.serial_number,
    not_before: row.not_before.toISOString(),
    vence_em: row.vence_em.toISOString(),
    fingerprint_sha256: row.fingerprint_sha256,
    key_usage: row.key_usage,
    icp_brasil: row.icp_brasil,
    raiz: certificateRoot(officialRootOf(row.chain_fingerprints, roots), roots !== null),
    holder_kind: row.holder_kind,
    cpf_mascarado: row.cpf ? maskCpf(row.cpf) : null,
    cnpj: row.cnpj,
    responsible_name: row.responsible_name,
    perfil_vinculado: row.linked_profile_id ? { id: row.linked_profile_id, nome: names.linkedNome ?? "" } : null,
    vinculado_clinica: row.linked_clinic,
    is_active: row.is_active,
    removed_at: row.removed_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    enviado_por: names.uploadedByNome,
  };
}
