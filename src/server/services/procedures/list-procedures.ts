import { and, asc, inArray, notInArray, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { procedimentos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { KNOWN_SPECIALTY_CODES, specialtyCodesMatching } from "../../../shared/reference/procedure-specialties.js";
import { PROCEDURE_LIST_LIMIT, type ProcedureList } from "../../../shared/schemas/procedure.js";
import { containsText } from "../../lib/search-text.js";
import type { Actor } from "../../policies/roles.js";
import { presentProcedure } from "../../presenters/procedure.js";
import { visibleProcedures } from "./procedure-visibility.js";

function procedureSearch(term: string): SQL {
  const codes = specialtyCodesMatching(term);
  const conditions = [
    containsText([sql`${procedimentos.nome}`, sql`${procedimentos.descricao}`], term),
    and(
      notInArray(procedimentos.especialidade, [...KNOWN_SPECIALTY_CODES]),
      containsText([sql`${procedimentos.especialidade}`], term),
    ),
    ...(codes.length > 0 ? [inArray(procedimentos.especialidade, codes)] : []),
  ];
  return or(...conditions) as SQL;
}

/** The procedures the actor may see, by name (accents ignored; the specialty by its name), at most PROCEDURE_LIST_LIMIT. */
export async function listProcedures(db: Db, actor: Actor, query: { q?: string | undefined }): Promise<ProcedureList> {
  const term = query.q?.trim();
  // The specialty is stored as a slug and searched by its name ('cirurgia plás'); an older
  // free-text specialty (not a slug of the list) is searched as it was typed.
  const search = term ? procedureSearch(term) : undefined;
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
