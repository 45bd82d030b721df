import type { Db } from "../../../db/client.js";
import { templates, templateVersions } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { emptyTemplate } from "../../../shared/document-model/structure.js";
import { TEMPLATE_MESSAGES, type TemplateDetail } from "../../../shared/schemas/template.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findTemplateOrThrow, newestVersion } from "./find-template.js";
import { loadTemplateDetail } from "./get-template.js";
import { canonicalSha256 } from "../../lib/content-hash.js";
import { versionContent } from "./template-content.js";

/**
 * A copy of the template: title + ' (Cópia)', same specialty and category, draft, with version 1
 * ('Template duplicado') holding the source's current content as stored, hashed by its content
 * (the spec's timestamp hash is not kept). A source without versions gives an empty template.
 */
export async function duplicateTemplate(
  db: Db,
  actor: Actor,
  id: string,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<TemplateDetail> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const source = await findTemplateOrThrow(tx, actor, id);
    const sourceVersion = await newestVersion(tx, actor.tenantId, id);
    const titulo = `${source.titulo}${TEMPLATE_MESSAGES.copySuffix}`;
    const [row] = await tx
      .insert(templates)
      .values({
        tenant_id: actor.tenantId,
        titulo,
        especialidade: source.especialidade,
        categoria: source.categoria,
        status: "draft",
        created_by: actor.profileId,
      })
      .returning({ id: templates.id });
    if (!row) throw new Error("templates insert returned no row");
    const content = sourceVersion
      ? {
          variaveis_json: sourceVersion.variaveis_json,
          conteudo_html: sourceVersion.conteudo_html,
          hash_modelo: canonicalSha256(sourceVersion.variaveis_json),
        }
      : versionContent(emptyTemplate(titulo));
    await tx.insert(templateVersions).values({
      tenant_id: actor.tenantId,
      template_id: row.id,
      version_number: 1,
      changelog: TEMPLATE_MESSAGES.changelogDuplicated,
      created_by: actor.profileId,
      ...content,
    });
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "template.duplicated",
        entityType: "template",
        entityId: row.id,
        data: { origem_id: id, origem_versao: sourceVersion?.version_number ?? null, titulo },
      },
    );
    return loadTemplateDetail(tx, actor, row.id);
  });
}
