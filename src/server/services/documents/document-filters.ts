import { and, eq, gte, inArray, isNotNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { contratos } from "../../../db/schema.js";
import { parseDocumentSearch } from "../../../shared/document-search.js";
import { startOfDayInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import type { DocumentStatus } from "../../../shared/schemas/document.js";
import { escapeLike } from "../../lib/search-text.js";

/**
 * Rows whose effective status (spec part 1 §4, DESIGN §2) is `status`: sent or viewed documents
 * past their expiry count as expired even before the sweep writes it.
 */
export function hasEffectiveStatus(status: DocumentStatus, now: Date): SQL {
  const live = sql`${contratos.expiracao_at} > ${now}`;
  if (status === "expired") {
    return or(
      eq(contratos.status, "expired"),
      and(inArray(contratos.status, ["sent", "viewed"]), lte(contratos.expiracao_at, now)),
    ) as SQL;
  }
  if (status === "sent" || status === "viewed") return and(eq(contratos.status, status), live) as SQL;
  return eq(contratos.status, status);
}

/**
 * The responsible professional has not signed yet (a correlated NOT EXISTS on the parties' unique
 * index, evaluated in the same statement as the row: no query per document).
 */
export function professionalPending(): SQL {
  return sql`(${contratos.medico_responsavel_id} is not null and not exists (select 1 from contrato_partes pp where pp.tenant_id = ${contratos.tenant_id} and pp.contrato_id = ${contratos.id} and pp.papel = 'profissional'))`;
}

/** Sent or viewed, live, waiting for the responsible professional (decision 050). */
export function awaitingProfessional(now: Date): SQL {
  return and(or(hasEffectiveStatus("sent", now), hasEffectiveStatus("viewed", now)), professionalPending()) as SQL;
}

export interface DocumentFilterQuery {
  q?: string | undefined;
  status?: DocumentStatus | undefined;
  aguardando?: "1" | undefined;
  aguardando_profissional?: "1" | undefined;
  revogado?: "1" | undefined;
  paciente_id?: string | undefined;
  medico_responsavel_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * The text-search part of the documents list's WHERE (empty without a search), on the given
 * columns: contratos' own, or those of a subquery over it.
 */
export function documentSearchConditions(
  query: Pick<DocumentFilterQuery, "q">,
  busca: AnyPgColumn | SQL = contratos.busca,
  id: AnyPgColumn | SQL = contratos.id,
): SQL[] {
  const search = query.q ? parseDocumentSearch(query.q) : null;
  if (search?.kind === "short-id") {
    // The trigram index on busca (which ends with the id) finds the candidates; right() keeps only
    // ids whose last 8 characters start with what was typed.
    return [sql`${busca} like '%' || ${search.prefix} || '%'`, sql`right(${id}::text, 8) like ${search.prefix} || '%'`];
  }
  return search ? [sql`${busca} like '%' || app_search_text(${escapeLike(search.term)}) || '%'`] : [];
}

/** WHERE conditions of the documents list; the first is always the tenant. */
export function documentConditions(
  tenantId: string,
  query: DocumentFilterQuery,
  now: Date,
  options: { search?: boolean } = {},
): SQL[] {
  const conditions: SQL[] = [eq(contratos.tenant_id, tenantId)];
  if (options.search !== false) conditions.push(...documentSearchConditions(query));
  if (query.status) conditions.push(hasEffectiveStatus(query.status, now));
  if (query.aguardando) conditions.push(or(hasEffectiveStatus("sent", now), hasEffectiveStatus("viewed", now)) as SQL);
  if (query.aguardando_profissional) conditions.push(awaitingProfessional(now));
  if (query.revogado) conditions.push(isNotNull(contratos.revogado_at));
  if (query.paciente_id) conditions.push(eq(contratos.paciente_id, query.paciente_id));
  if (query.medico_responsavel_id) conditions.push(eq(contratos.medico_responsavel_id, query.medico_responsavel_id));
  if (query.from) conditions.push(gte(contratos.created_at, startOfDayInSaoPaulo(query.from)));
  if (query.to) {
    const next = new Date(`${query.to}T12:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    conditions.push(lt(contratos.created_at, startOfDayInSaoPaulo(next.toISOString().slice(0, 10))));
  }
  return conditions;
}
