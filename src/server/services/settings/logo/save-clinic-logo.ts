import type { Db } from "../../../../db/client.js";
import { clinicLogos } from "../../../../db/schema.js";
import { withTenant } from "../../../../db/tenant-scope.js";
import type { ClinicLogo } from "../../../../shared/clinic-logo.js";
import type { Actor } from "../../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../../audit/record-audit-event.js";
import { assertSettingsManager } from "../clinic-settings-access.js";
import { presentClinicLogo } from "./clinic-logo-presenter.js";
import { normalizeClinicLogo } from "./normalize-clinic-logo.js";

export interface SaveClinicLogoOptions {
  db: Db;
  actor: Actor;
  bytes: Buffer;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * PUT /api/settings/clinic/logo (owner and administrators): the uploaded PNG, JPEG or SVG is
 * re-encoded (normalizeClinicLogo) before anything is written; the clinic's one logo is replaced
 * and the change audited. PDFs made from now on draw it; sealed PDFs keep the logo they were made with.
 */
export async function saveClinicLogo({
  db,
  actor,
  bytes,
  audit,
  now = new Date(),
}: SaveClinicLogoOptions): Promise<ClinicLogo> {
  assertSettingsManager(actor);
  const logo = await normalizeClinicLogo(bytes);
  return withTenant(db, actor.tenantId, async (tx) => {
    const values = {
      png: logo.png,
      sha256: logo.sha256,
      width: logo.width,
      height: logo.height,
      formato_original: logo.formatoOriginal,
      updated_by: actor.profileId,
      updated_at: now,
    };
    const [row] = await tx
      .insert(clinicLogos)
      .values({ tenant_id: actor.tenantId, ...values })
      .onConflictDoUpdate({ target: clinicLogos.tenant_id, set: values })
      .returning({
        sha256: clinicLogos.sha256,
        width: clinicLogos.width,
        height: clinicLogos.height,
        formato_original: clinicLogos.formato_original,
        updated_at: clinicLogos.updated_at,
      });
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "settings.logo_updated",
        entityType: "tenant",
        entityId: actor.tenantId,
        data: {
          sha256: logo.sha256,
          largura: logo.width,
          altura: logo.height,
          formato_original: logo.formatoOriginal,
          bytes_enviados: bytes.length,
        },
      },
    );
    return presentClinicLogo(row);
  });
}
