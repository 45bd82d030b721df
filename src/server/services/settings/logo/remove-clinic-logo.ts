import { eq } from "drizzle-orm";
import type { Db } from "../../../../db/client.js";
import { clinicLogos } from "../../../../db/schema.js";
import { withTenant } from "../../../../db/tenant-scope.js";
import type { ClinicLogo } from "../../../../shared/clinic-logo.js";
import type { Actor } from "../../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../../audit/record-audit-event.js";
import { assertSettingsManager } from "../clinic-settings-access.js";

/** DELETE /api/settings/clinic/logo (owner and administrators): new PDFs go back to the name alone. */
export async function removeClinicLogo(
  db: Db,
  actor: Actor,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<ClinicLogo> {
  assertSettingsManager(actor);
  return withTenant(db, actor.tenantId, async (tx) => {
    const removed = await tx
      .delete(clinicLogos)
      .where(eq(clinicLogos.tenant_id, actor.tenantId))
      .returning({ sha256: clinicLogos.sha256 });
    if (removed[0]) {
      await recordAuditEvent(
        tx,
        { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
        {
          action: "settings.logo_removed",
          entityType: "tenant",
          entityId: actor.tenantId,
          data: { sha256: removed[0].sha256 },
        },
      );
    }
    return { logo: null };
  });
}
