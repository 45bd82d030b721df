import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { templates, templateVersions } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { TEMPLATE_MESSAGES, type TemplateDetail } from "../../../shared/schemas/template.js";
import { type Actor, can } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findTemplateOrThrow } from "./find-template.js";
import { findTemplateVersionOrThrow } from "./find-template-version.js";
import { loadTemplateDetail, storedStructure } from "./get-template.js";
import { normalizeStructure, versionContent } from "./template-content.js";

/**
 * "Restaurar esta versão" (decision 034): a NEW version (max + 1) whose content equals the chosen
 * one's, changelog 'Restaurado da versão N'. History is never rewritten: the chosen version and
 * every later one stay as they were. Publication follows the rule of an edit (update-template.ts):
 * on a published template the new version is published at once when the actor may publish,
 * otherwise the template goes to review. The template row is locked first, so concurrent saves
 * and restores get consecutive numbers.
 */
export async function restoreTemplateVersion(
  db: Db,
  actor: Actor,
  templateId: string,
  versionId: string,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<TemplateDetail> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const before = await findTemplateOrThrow(tx, actor, templateId, { lock: true });
    const source = await findTemplateVersionOrThrow(tx, actor, templateId, versionId);
    const wasPublished = before.status === "published";
    const publishNow = wasPublished && can(actor, "templates.publish");
    const status = wasPublished && !publishNow ? "review" : before.status;
    await tx
      .update(templates)
      .set({ status, updated_at: new Date() })
      .where(and(eq(templates.tenant_id, actor.tenantId), eq(templates.id, templateId)));

    const [max] = await tx
      .select({ n: sql<number>`coalesce(max(${templateVersions.version_number}), 0)::int` })
      .from(templateVersions)
      .where(and(eq(templateVersions.tenant_id, actor.tenantId), eq(templateVersions.template_id, templateId)));
    const versionNumber = (max?.n ?? 0) + 1;
    const content = versionContent(normalizeStructure(storedStructure(source, before.titulo)));
    await tx.insert(templateVersions).values({
      tenant_id: actor.tenantId,
      template_id: templateId,
      version_number: versionNumber,
      changelog: TEMPLATE_MESSAGES.changelogRestored(source.version_number),
      created_by: actor.profileId,
      published_at: publishNow ? new Date() : null,
      published_by: publishNow ? actor.profileId : null,
      ...content,
    });
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "template.version_restored",
        entityType: "template",
        entityId: templateId,
        data: {
          versao: versionNumber,
          restaurada_de: source.version_number,
          restaurada_de_id: source.id,
          hash_modelo: content.hash_modelo,
          status_de: before.status,
          status_para: status,
          publicada: publishNow,
        },
      },
    );
    return loadTemplateDetail(tx, actor, templateId);
  });
}
