import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { templates, templateVersions } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import {
  canTransition,
  TEMPLATE_STATUSES,
  type TemplateDetail,
  type TemplateStatus,
} from "../../../shared/schemas/template.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findTemplateOrThrow, newestVersion } from "./find-template.js";
import { loadTemplateDetail } from "./get-template.js";

export interface ChangeTemplateStatusOptions {
  db: Db;
  actor: Actor;
  id: string;
  to: TemplateStatus;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/**
 * Moves the template along TEMPLATE_TRANSITIONS (the route has already asked templates.publish
 * for → published, templates.write otherwise); anything else is 409 TEMPLATE_INVALID_TRANSITION.
 * Publishing stamps the newest version (published_at, published_by) unless it already is: new
 * documents use the newest published version.
 */
export async function changeTemplateStatus({
  db,
  actor,
  id,
  to,
  audit,
}: ChangeTemplateStatusOptions): Promise<TemplateDetail> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const row = await findTemplateOrThrow(tx, actor, id, { lock: true });
    const from: TemplateStatus = (TEMPLATE_STATUSES as readonly string[]).includes(row.status) ? row.status : "draft";
    if (!canTransition(from, to)) throw new AppError("TEMPLATE_INVALID_TRANSITION");
    await tx
      .update(templates)
      .set({ status: to, updated_at: new Date() })
      .where(and(eq(templates.tenant_id, actor.tenantId), eq(templates.id, id)));
    let versao: number | null = null;
    if (to === "published") {
      const version = await newestVersion(tx, actor.tenantId, id);
      if (version) {
        versao = version.version_number;
        await tx
          .update(templateVersions)
          .set({ published_at: new Date(), published_by: actor.profileId })
          .where(
            and(
              eq(templateVersions.tenant_id, actor.tenantId),
              eq(templateVersions.id, version.id),
              isNull(templateVersions.published_at),
            ),
          );
      }
    }
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "template.status_changed", entityType: "template", entityId: id, data: { de: from, para: to, versao } },
    );
    return loadTemplateDetail(tx, actor, id);
  });
}
