import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { TemplateDefaults } from "../../../shared/schemas/template.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";

export const templateDefaultColumns = {
  template_riscos: profiles.template_riscos,
  template_beneficios: profiles.template_beneficios,
  template_cuidados_pos: profiles.template_cuidados_pos,
  template_valor_procedimento: profiles.template_valor_procedimento,
};

/** The signed-in user's own default texts (/profile/templates). */
export async function getTemplateDefaults(db: Db, actor: Actor): Promise<TemplateDefaults> {
  const [row] = await withTenant(db, actor.tenantId, (tx) =>
    tx
      .select(templateDefaultColumns)
      .from(profiles)
      .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, actor.profileId)))
      .limit(1),
  );
  if (!row) throw new AppError("UNAUTHENTICATED");
  return row;
}
