import { and, desc, eq, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../../db/client.js";
import { certificados, profiles } from "../../../db/schema.js";
import type { Certificate } from "../../../shared/schemas/certificates.js";
import { presentCertificate } from "../../presenters/certificate.js";
import type { OfficialRoots } from "./official-roots.js";

/** A clinic has a handful of certificates: the list is capped, not paged. */
export const CERTIFICATE_LIST_LIMIT = 200;

export interface FindCertificatesOptions {
  tx: DbOrTx;
  tenantId: string;
  roots: OfficialRoots | null;
  where?: SQL;
  limit?: number;
}

/**
 * Certificates of a tenant matching `where`, newest first, presented with the names they point at
 * and whether their chains end at one of the official `roots` (null: the server has none).
 */
export async function findCertificates({
  tx,
  tenantId,
  roots,
  where,
  limit = CERTIFICATE_LIST_LIMIT,
}: FindCertificatesOptions): Promise<Certificate[]> {
  const owner = alias(profiles, "owner");
  const linked = alias(profiles, "linked");
  const uploader = alias(profiles, "uploader");
  const rows = await tx
    .select({ row: certificados, ownerNome: owner.nome, linkedNome: linked.nome, uploadedByNome: uploader.nome })
    .from(certificados)
    .leftJoin(owner, eq(owner.id, certificados.owner_profile_id))
    .leftJoin(linked, eq(linked.id, certificados.linked_profile_id))
    .leftJoin(uploader, eq(uploader.id, certificados.uploaded_by))
    .where(and(eq(certificados.tenant_id, tenantId), eq(certificados.provider, "local"), where))
    .orderBy(desc(certificados.created_at), desc(certificados.id))
    .limit(limit);
  return rows.map(({ row, ...names }) => presentCertificate(row, names, roots));
}
