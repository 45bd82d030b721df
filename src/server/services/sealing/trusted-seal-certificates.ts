/**
 * The certificates a Consentir seal may come from: every instance seal this database
 * ever made (a document sealed before a seal was replaced stays verifiable), plus — for one
 * clinic — the certificates it registered. /verificar accepts a seal only from these; a
 * look-alike key with the same name is "assinado por outro certificado".
 */
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { certificados, sealCertificates } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { TrustedCertificate } from "./verify-signed-pdf.js";

export interface PublishedSealCertificate {
  assunto: string;
  sha256: string;
  criado_em: string;
  valido_ate: string;
}

/** Instance seals, oldest first (owner connection: the table is instance-wide). */
export async function instanceSealCertificates(db: Db): Promise<PublishedSealCertificate[]> {
  const rows = await db
    .select({
      subject: sealCertificates.subject,
      sha256: sealCertificates.fingerprint_sha256,
      created_at: sealCertificates.created_at,
      not_after: sealCertificates.not_after,
    })
    .from(sealCertificates)
    .orderBy(asc(sealCertificates.created_at));
  return rows.map((r) => ({
    assunto: r.subject,
    sha256: r.sha256,
    criado_em: r.created_at.toISOString(),
    valido_ate: r.not_after.toISOString(),
  }));
}

/**
 * Instance seals plus, for a clinic, every certificate it registered — removed ones included: a
 * PDF sealed while a certificate was active stays verifiable after the clinic replaces it.
 */
export async function trustedSealCertificates(db: Db, tenantId?: string): Promise<TrustedCertificate[]> {
  const instance = (await instanceSealCertificates(db)).map((c) => ({
    sha256: c.sha256,
    label: "selo desta instância Consentir",
  }));
  if (!tenantId) return instance;
  const registered = await withTenant(db, tenantId, (tx) =>
    tx
      .select({ sha256: certificados.fingerprint_sha256, cn: certificados.cn, owner: certificados.owner_profile_id })
      .from(certificados)
      .where(eq(certificados.tenant_id, tenantId)),
  );
  return [
    ...instance,
    ...registered.map((c) => ({
      sha256: c.sha256,
      label: `certificado ${c.owner ? "de profissional" : "da clínica"} cadastrado no Consentir (${c.cn})`,
    })),
  ];
}
