import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratos } from "../../../db/schema.js";
import { rawRows } from "../../../db/raw.js";
import { parseDocumentSearch, patientNamePatterns } from "../../../shared/document-search.js";
import { escapeLike } from "../../lib/search-text.js";

/** Past this many documents of the matching patients, the trigram index on busca answers instead. */
export const NAME_CANDIDATES_MAX = 2000;

/**
 * The candidates of a text search (decision 036): the documents whose "título procedimento" holds
 * the text (its own trigram index) or whose patient has a matching frozen name (contrato_nomes, a
 * few thousand rows). Every match of busca is a candidate (patientNamePatterns says why), so
 * "candidate and busca like" is exactly "busca like". A SQL condition on contratos, or null when
 * the trigram index on busca should answer: a short id, a text that may reach the id, or names
 * whose patients hold more than NAME_CANDIDATES_MAX documents.
 *
 * Why: a patient's name ("maria silva") is made of trigrams found in a tenth of a clinic's
 * documents each; the trigram index on busca intersects those long lists even when nobody matches
 * (~20–30 ms at 1M documents), while the same text among distinct names and in the title part is
 * answered in about a millisecond.
 */
export async function searchCandidates(tx: Tx, tenantId: string, q: string | undefined): Promise<SQL | null> {
  const search = q ? parseDocumentSearch(q) : null;
  if (search?.kind !== "text") return null;
  const [normalized] = await rawRows<{ text: string }>(tx, sql`select app_search_text(${escapeLike(search.term)}) as text`);
  const patterns = normalized ? patientNamePatterns(normalized.text) : null;
  if (!patterns) return null;
  const names = sql.join(
    patterns.map((pattern) => sql`nome like ${pattern}`),
    sql` or `,
  );
  const [hit] = await rawRows<{ ids: string | null; documents: number | null }>(
    tx,
    sql`with hit as (select distinct paciente_id from contrato_nomes where tenant_id = ${tenantId} and (${names}))
        select (select string_agg(paciente_id::text, ',') from hit) as ids,
               (select sum(n)::int from contrato_nomes where tenant_id = ${tenantId} and paciente_id in (select paciente_id from hit)) as documents`,
  );
  if ((hit?.documents ?? 0) > NAME_CANDIDATES_MAX) return null;
  const titlePart = sql`app_search_text(coalesce(${contratos.titulo}, '') || ' ' || coalesce(${contratos.procedimento}, '')) like ${`%${normalized?.text}%`}`;
  return hit?.ids ? sql`(${titlePart} or ${contratos.paciente_id} = any(${`{${hit.ids}}`}::uuid[]))` : titlePart;
}
