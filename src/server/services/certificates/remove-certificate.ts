import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { certificados } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { Certificate } from "../../../shared/schemas/certificates.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { certificateScope } from "./access.js";
import { findCertificates } from "./find-certificates.js";
import type { OfficialRoots } from "./official-roots.js";

export interface RemoveCertificateOptions {
  db: Db;
  roots: OfficialRoots | null;
  actor: Actor;
  id: string;
  context: { ip?: string; userAgent?: string };
  now?: Date;
}

/**
 * DELETE /api/certificates/:id (spec part 1 §4: removal is a soft deactivation). The owner and
 * administrators remove any of the clinic's; a professional only their own (another's is 403).
 * Removing an inactive certificate changes nothing and says so with the same answer.
 */
export async function removeCertificate({
  db,
  roots,
  actor,
  id,
  context,
  now = new Date(),
}: RemoveCertificateOptions): Promise<Certificate> {
  const scope = certificateScope(actor);
  return withTenant(db, actor.tenantId, async (tx) => {
    const [row] = await tx
      .select({
        owner: certificados.owner_profile_id,
        isActive: certificados.is_active,
        alias: certificados.alias,
        fingerprint: certificados.fingerprint_sha256,
      })
      .from(certificados)
      .where(and(eq(certificados.tenant_id, actor.tenantId), eq(certificados.id, id)))
      .for("update");
    if (!row) throw new AppError("CERTIFICATE_NOT_FOUND");
    if (scope === "own" && row.owner !== actor.profileId) throw new AppError("CERTIFICATES_FORBIDDEN");
    if (row.isActive) {
      await tx
        .update(certificados)
        .set({ is_active: false, removed_at: now, removed_by: actor.profileId })
        .where(and(eq(certificados.tenant_id, actor.tenantId), eq(certificados.id, id)));
      await recordAuditEvent(
        tx,
        { tenantId: actor.tenantId, actorProfileId: actor.profileId, ip: context.ip, userAgent: context.userAgent },
        {
          action: "certificate.removed",
          entityType: "certificado",
          entityId: id,
          data: { alias: row.alias, fingerprint_sha256: row.fingerprint },
        },
      );
    }
    const [presented] = await findCertificates({
      tx,
      tenantId: actor.tenantId,
      roots,
      where: eq(certificados.id, id),
      limit: 1,
    });
    if (!presented) throw new AppError("CERTIFICATE_NOT_FOUND");
    return presented;
  });
}
