import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { templates } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { TEMPLATE_MESSAGES, type TemplateDetail } from "../../../shared/schemas/template.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findTemplateOrThrow } from "./find-template.js";
import { findTemplateVersionOrThrow } from "./find-template-version.js";
import { loadTemplateDetail, storedStructure } from "./get-template.js";
import { normalizeStructure } from "./template-content.js";
import { appendTemplateVersion, publicationOfNewVersion } from "./append-template-version.js";

export interface RestoreTemplateVersionOptions {
  db: Db;
  actor: Actor;
  templateId: string;
  versionId: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/**
 * "Restaurar esta versão" (decision 034): a NEW version (max + 1) whose content equals the chosen
 * one's, changelog 'Restaurado da versão N'. History is never rewritten: the chosen version and
 * every later one stay as they were. Publication follows the rule of an edit (update-template.ts):
 * on a published template the new version is published at once when the actor may publish,
 * otherwise the template goes to review. The template row is locked first, so concurrent saves
 * and restores get consecutive numbers.
 */
export async function restoreTemplateVersion({
  db,
  actor,
  templateId,
  versionId,
  audit,
}: RestoreTemplateVersionOptions): Promise<TemplateDetail> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const before = await findTemplateOrThrow(tx, actor, templateId, { lock: true });
    const source = await findTemplateVersionOrThrow(tx, actor, templateId, versionId);
    const { publishNow, status } = publicationOfNewVersion(actor, before.status);
    await tx
      .update(templates)
      .set({ status, updated_at: new Date() })
      .where(and(eq(templates.tenant_id, actor.tenantId), eq(templates.id, templateId)));

    const { versionNumber, hashModelo } = await appendTemplateVersion(tx, actor, templateId, {
      structure: normalizeStructure(storedStructure(source, before.titulo)),
      changelog: TEMPLATE_MESSAGES.changelogRestored(source.version_number),
      publishNow,
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
          hash_modelo: hashModelo,
          status_de: before.status,
          status_para: status,
          publicada: publishNow,
        },
      },
    );
    return loadTemplateDetail(tx, actor, templateId);
  });
}
