import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles, templateVersions } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { TemplateVersionDetail } from "../../../shared/schemas/template.js";
import type { Actor } from "../../policies/roles.js";
import { presentTemplateVersion } from "../../presenters/template.js";
import { findTemplateOrThrow } from "./find-template.js";
import { findTemplateVersionOrThrow } from "./find-template-version.js";
import { storedStructure } from "./get-template.js";

/** One version of a template with its content (to compare versions in Histórico de Versões). */
export async function getTemplateVersion(
  db: Db,
  actor: Actor,
  templateId: string,
  versionId: string,
): Promise<TemplateVersionDetail> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const template = await findTemplateOrThrow(tx, actor, templateId);
    const version = await findTemplateVersionOrThrow(tx, actor, templateId, versionId);
    const [publisher] = version.published_by
      ? await tx
          .select({ nome: profiles.nome })
          .from(profiles)
          .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, version.published_by)))
          .limit(1)
      : [];
    const [newest] = await tx
      .select({ id: templateVersions.id })
      .from(templateVersions)
      .where(and(eq(templateVersions.tenant_id, actor.tenantId), eq(templateVersions.template_id, templateId)))
      .orderBy(desc(templateVersions.version_number))
      .limit(1);
    return {
      ...presentTemplateVersion(version, publisher?.nome ?? null, newest?.id === version.id),
      estrutura: storedStructure(version, template.titulo),
    };
  });
}
