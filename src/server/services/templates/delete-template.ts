import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { templates, templateVersions } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { TEMPLATE_MESSAGES } from "../../../shared/schemas/template.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { countTemplateUses } from "./count-template-uses.js";
import { findTemplateOrThrow } from "./find-template.js";

function inUse(count: number): AppError {
  return new AppError("TEMPLATE_IN_USE", TEMPLATE_MESSAGES.deleteBlocked(count), { details: { count } });
}

/**
 * Deletes the template and its versions, unless a document uses any version (409 TEMPLATE_IN_USE
 * with the count). The foreign key contratos → template_versions (ON DELETE RESTRICT) is the
 * last word when a document is made between the count and the delete.
 */
export async function deleteTemplate(
  db: Db,
  actor: Actor,
  id: string,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<void> {
  try {
    await withTenant(db, actor.tenantId, async (tx) => {
      const row = await findTemplateOrThrow(tx, actor, id, { lock: true });
      const uses = await countTemplateUses(tx, actor.tenantId, id);
      if (uses > 0) throw inUse(uses);
      await tx
        .delete(templateVersions)
        .where(and(eq(templateVersions.tenant_id, actor.tenantId), eq(templateVersions.template_id, id)));
      await tx.delete(templates).where(and(eq(templates.tenant_id, actor.tenantId), eq(templates.id, id)));
      await recordAuditEvent(
        tx,
        { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
        { action: "template.deleted", entityType: "template", entityId: id, data: { titulo: row.titulo } },
      );
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new AppError("TEMPLATE_IN_USE");
    throw error;
  }
}

function isForeignKeyViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23503") return true;
  }
  return false;
}
