import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { templates, templateVersions } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { TEMPLATE_MESSAGES, type TemplateData, type TemplateDetail } from "../../../shared/schemas/template.js";
import { AppError } from "../../errors.js";
import { type Actor, can } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findTemplateOrThrow } from "./find-template.js";
import { allowedSpecialties } from "./get-allowed-specialties.js";
import { loadTemplateDetail } from "./get-template.js";
import { normalizeStructure, versionContent } from "./template-content.js";

/**
 * Saves an edit: the template's fields change and a NEW immutable version (max + 1, 'Template
 * atualizado') is always inserted; old versions are never touched (spec part 2 §4). The template
 * row is locked FOR UPDATE first, so concurrent saves queue and get consecutive numbers.
 *
 * Editing a PUBLISHED template (our rule; the spec does not say): documents are always made from
 * the newest version whose published_at is set, so
 * - when the editor may publish (templates.publish), the new version is published at once
 *   (published_at = now, published_by = editor) and the template stays 'published';
 * - otherwise (e.g. pro_saude) the new version stays unpublished and the template goes to
 *   'review': documents keep using the last published version until someone who may publish
 *   publishes it.
 * Draft and review templates get an unpublished version and keep their status.
 */
export async function updateTemplate(
  db: Db,
  actor: Actor,
  id: string,
  input: TemplateData,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<TemplateDetail> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const before = await findTemplateOrThrow(tx, actor, id, { lock: true });
    if (input.especialidade !== before.especialidade) {
      const allowed = await allowedSpecialties(tx, actor);
      if (!allowed.fallback && !allowed.items.includes(input.especialidade)) {
        throw new AppError("TEMPLATE_SPECIALTY_NOT_ALLOWED", TEMPLATE_MESSAGES.especialidadeNotAllowed, {
          issues: [{ path: "especialidade", message: TEMPLATE_MESSAGES.especialidadeNotAllowed }],
        });
      }
    }
    const wasPublished = before.status === "published";
    const publishNow = wasPublished && can(actor, "templates.publish");
    const status = wasPublished && !publishNow ? "review" : before.status;

    const [row] = await tx
      .update(templates)
      .set({ titulo: input.titulo, especialidade: input.especialidade, categoria: input.categoria, status, updated_at: new Date() })
      .where(and(eq(templates.tenant_id, actor.tenantId), eq(templates.id, id)))
      .returning({ id: templates.id });
    if (!row) throw new Error("templates update returned no row");

    const [max] = await tx
      .select({ n: sql<number>`coalesce(max(${templateVersions.version_number}), 0)::int` })
      .from(templateVersions)
      .where(and(eq(templateVersions.tenant_id, actor.tenantId), eq(templateVersions.template_id, id)));
    const versionNumber = (max?.n ?? 0) + 1;
    const content = versionContent(normalizeStructure(input.estrutura));
    await tx.insert(templateVersions).values({
      tenant_id: actor.tenantId,
      template_id: id,
      version_number: versionNumber,
      changelog: TEMPLATE_MESSAGES.changelogUpdated,
      created_by: actor.profileId,
      published_at: publishNow ? new Date() : null,
      published_by: publishNow ? actor.profileId : null,
      ...content,
    });
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "template.updated",
        entityType: "template",
        entityId: id,
        data: {
          versao: versionNumber,
          hash_modelo: content.hash_modelo,
          campos: (["titulo", "especialidade", "categoria"] as const).filter((key) => before[key] !== input[key]),
          status_de: before.status,
          status_para: status,
          publicada: publishNow,
        },
      },
    );
    return loadTemplateDetail(tx, actor, id);
  });
}
