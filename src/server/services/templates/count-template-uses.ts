import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratos, templateVersions } from "../../../db/schema.js";

/** Documents made from ANY version of the template (the spec counted by template id: wrong). */
export async function countTemplateUses(tx: Tx, tenantId: string, templateId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(contratos)
    .innerJoin(
      templateVersions,
      and(eq(templateVersions.tenant_id, contratos.tenant_id), eq(templateVersions.id, contratos.template_version_id)),
    )
    .where(
      and(
        eq(contratos.tenant_id, tenantId),
        eq(templateVersions.tenant_id, tenantId),
        eq(templateVersions.template_id, templateId),
      ),
    );
  return row?.n ?? 0;
}
