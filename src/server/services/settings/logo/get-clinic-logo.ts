import { eq } from "drizzle-orm";
import type { Db } from "../../../../db/client.js";
import { clinicLogos } from "../../../../db/schema.js";
import { withTenant } from "../../../../db/tenant-scope.js";
import type { ClinicLogo } from "../../../../shared/clinic-logo.js";
import type { Actor } from "../../../policies/roles.js";
import { assertSettingsManager } from "../clinic-settings-access.js";
import { presentClinicLogo } from "./clinic-logo-presenter.js";

/** GET /api/settings/clinic/logo: the session's clinic's logo, or null (owner and administrators). */
export async function getClinicLogo(db: Db, actor: Actor): Promise<ClinicLogo> {
  assertSettingsManager(actor);
  return withTenant(db, actor.tenantId, async (tx) => {
    const [row] = await tx
      .select({
        sha256: clinicLogos.sha256,
        width: clinicLogos.width,
        height: clinicLogos.height,
        formato_original: clinicLogos.formato_original,
        updated_at: clinicLogos.updated_at,
      })
      .from(clinicLogos)
      .where(eq(clinicLogos.tenant_id, actor.tenantId))
      .limit(1);
    return presentClinicLogo(row);
  });
}
