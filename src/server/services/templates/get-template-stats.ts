import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { templates } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { TemplateStats } from "../../../shared/schemas/template.js";
import type { Actor } from "../../policies/roles.js";

/** The four cards of /templates, over the whole clinic (not the search). */
export async function getTemplateStats(db: Db, actor: Actor): Promise<TemplateStats> {
  const [row] = await withTenant(db, actor.tenantId, (tx) =>
    tx
      .select({
        total: sql<number>`count(*)::int`,
        publicados: sql<number>`(count(*) filter (where ${templates.status} = 'published'))::int`,
        em_revisao: sql<number>`(count(*) filter (where ${templates.status} = 'review'))::int`,
        rascunhos: sql<number>`(count(*) filter (where ${templates.status} not in ('published', 'review')))::int`,
      })
      .from(templates)
      .where(eq(templates.tenant_id, actor.tenantId)),
  );
  return row ?? { total: 0, publicados: 0, em_revisao: 0, rascunhos: 0 };
}
