import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "../../../db/client.js";
import { templates } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { TemplateList, templateListQuerySchema } from "../../../shared/schemas/template.js";
import { escapeLike } from "../../lib/search-text.js";
import type { Actor } from "../../policies/roles.js";
import { presentTemplateSummary } from "../../presenters/template.js";
import { afterCursor, decodeCursor, encodeCursor } from "../../lib/cursor.js";
import { selectSummaries } from "./template-summary.js";

type ListQuery = z.output<typeof templateListQuerySchema>;

/**
 * One page of the clinic's templates, newest first (keyset on created_at desc, id desc), searched
 * on the server over title, specialty and category (case and accents ignored, via the generated
 * `busca` column and its trigram index), with the number of matches.
 */
export async function listTemplates(db: Db, actor: Actor, query: ListQuery): Promise<TemplateList> {
  const conditions: SQL[] = [eq(templates.tenant_id, actor.tenantId)];
  const term = query.q?.trim();
  if (term) conditions.push(sql`${templates.busca} like '%' || app_search_text(${escapeLike(term)}) || '%'`);
  if (query.status) conditions.push(eq(templates.status, query.status));
  const matching = and(...conditions) as SQL;
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const page = cursor ? (and(matching, afterCursor(cursor, templates.created_at, templates.id)) as SQL) : matching;

  const work = async (tx: Tx) => {
    const rows = await selectSummaries(tx)
      .where(page)
      .orderBy(desc(templates.created_at), desc(templates.id))
      .limit(query.limit + 1);
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(templates)
      .where(matching);
    return { rows, total: count?.n ?? 0 };
  };
  // Like the patients search (docs/decisions/004-search-without-rls.md): a LIKE under row-level
  // security cannot use the trigram index, so a search runs on its tenant WHERE alone (the
  // summaries' subqueries are correlated on the template's tenant too); everything else runs
  // behind both walls.
  const { rows, total } = term ? await db.transaction(work) : await withTenant(db, actor.tenantId, work);
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  return {
    items: items.map(presentTemplateSummary),
    total,
    next_cursor:
      rows.length > query.limit && last
        ? encodeCursor({ createdAt: last.created_at_exact, id: last.template.id })
        : null,
  };
}
