import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles, templateVersions } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { z } from "zod";
import type { templateVersionListSchema } from "../../../shared/schemas/template.js";
import type { Actor } from "../../policies/roles.js";
import { presentTemplateVersion } from "../../presenters/template.js";
import { findTemplateOrThrow } from "./find-template.js";

/** Every version, newest (the current one) first, with the publisher's name. */
export async function listTemplateVersions(
  db: Db,
  actor: Actor,
  id: string,
): Promise<z.infer<typeof templateVersionListSchema>> {
  return withTenant(db, actor.tenantId, async (tx) => {
    await findTemplateOrThrow(tx, actor, id);
    const rows = await tx
      .select({ version: templateVersions, publicador_nome: profiles.nome })
      .from(templateVersions)
      .leftJoin(
        profiles,
        and(eq(profiles.id, templateVersions.published_by), eq(profiles.tenant_id, templateVersions.tenant_id)),
      )
      .where(and(eq(templateVersions.tenant_id, actor.tenantId), eq(templateVersions.template_id, id)))
      .orderBy(desc(templateVersions.version_number));
    return { items: rows.map((row, index) => presentTemplateVersion(row.version, row.publicador_nome, index === 0)) };
  });
}
