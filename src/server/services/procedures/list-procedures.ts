import { and, asc, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { procedimentos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { PROCEDURE_LIST_LIMIT, type ProcedureList } from "../../../shared/schemas/procedure.js";
import { containsText } from "../../lib/search-text.js";
import type { Actor } from "../../policies/roles.js";
import { presentProcedure } from "../../presenters/procedure.js";
import { visibleProcedures } from "./procedure-visibility.js";

/** The procedures the actor may see, by name (accents ignored), at most PROCEDURE_LIST_LIMIT. */
export async function listProcedures(db: Db, actor: Actor, query: { q?: string | undefined }): Promise<ProcedureList> {
  const term = query.q?.trim();
  const search = term
    ? containsText([sql`${procedimentos.nome}`, sql`${procedimentos.descricao}`, sql`${procedimentos.especialidade}`], term)
    : undefined;
  const rows = await withTenant(db, actor.tenantId, (tx) =>
    tx
      .select()
      .from(procedimentos)
      .where(and(visibleProcedures(actor), search))
      .orderBy(sql`app_search_text(${procedimentos.nome})`, asc(procedimentos.id))
      .limit(PROCEDURE_LIST_LIMIT + 1),
  );
  return {
    items: rows.slice(0, PROCEDURE_LIST_LIMIT).map(presentProcedure),
    truncated: rows.length > PROCEDURE_LIST_LIMIT,
  };
}
