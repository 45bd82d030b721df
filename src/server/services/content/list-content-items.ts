import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { CONTENT_LIST_LIMIT, type ContentKind, type ContentList } from "../../../shared/schemas/content.js";
import { containsText } from "../../lib/search-text.js";
import type { Actor } from "../../policies/roles.js";
import { presentContentItem } from "../../presenters/content-item.js";
import { contentTable } from "./content-tables.js";

/** The clinic's items of one kind, by title (accents ignored), at most CONTENT_LIST_LIMIT. */
export async function listContentItems(
  db: Db,
  actor: Actor,
  kind: ContentKind,
  query: { q?: string | undefined },
): Promise<ContentList> {
  const table = contentTable(kind);
  const term = query.q?.trim();
  const extra = kind === "cuidados" ? sql.identifier("periodo") : sql.identifier("categoria");
  const search = term ? containsText([sql`${table.titulo}`, sql`${table.descricao}`, sql`${extra}`], term) : undefined;
  const rows = await withTenant(db, actor.tenantId, (tx) =>
    tx
      .select()
      .from(table)
      .where(and(eq(table.tenant_id, actor.tenantId), search))
      .orderBy(sql`app_search_text(${table.titulo})`, asc(table.id))
      .limit(CONTENT_LIST_LIMIT + 1),
  );
  return {
    items: rows.slice(0, CONTENT_LIST_LIMIT).map((row) => presentContentItem(kind, row)),
    truncated: rows.length > CONTENT_LIST_LIMIT,
  };
}
