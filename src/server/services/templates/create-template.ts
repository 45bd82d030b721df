import type { Db } from "../../../db/client.js";
import { templates, templateVersions } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { TEMPLATE_MESSAGES, type TemplateData, type TemplateDetail } from "../../../shared/schemas/template.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { allowedSpecialties } from "./get-allowed-specialties.js";
import { loadTemplateDetail } from "./get-template.js";
import { normalizeStructure, versionContent } from "./template-content.js";

/** A new template: draft, with version 1 ('Versão inicial'), unpublished. */
export async function createTemplate(
  db: Db,
  actor: Actor,
  input: TemplateData,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<TemplateDetail> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const allowed = await allowedSpecialties(tx, actor);
    if (!allowed.fallback && !allowed.items.includes(input.especialidade)) {
      throw new AppError("TEMPLATE_SPECIALTY_NOT_ALLOWED", TEMPLATE_MESSAGES.especialidadeNotAllowed, {
        issues: [{ path: "especialidade", message: TEMPLATE_MESSAGES.especialidadeNotAllowed }],
      });
    }
    const [row] = await tx
      .insert(templates)
      .values({
        tenant_id: actor.tenantId,
        titulo: input.titulo,
        especialidade: input.especialidade,
        categoria: input.categoria,
        status: "draft",
        created_by: actor.profileId,
      })
      .returning({ id: templates.id });
    if (!row) throw new Error("templates insert returned no row");
    const content = versionContent(normalizeStructure(input.estrutura));
    await tx.insert(templateVersions).values({
      tenant_id: actor.tenantId,
      template_id: row.id,
      version_number: 1,
      changelog: TEMPLATE_MESSAGES.changelogCreated,
      created_by: actor.profileId,
      ...content,
    });
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "template.created",
        entityType: "template",
        entityId: row.id,
        data: { titulo: input.titulo, versao: 1, hash_modelo: content.hash_modelo },
      },
    );
    return loadTemplateDetail(tx, actor, row.id);
  });
}
