import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratos } from "../../../db/schema.js";
import { rawRows } from "../../../db/raw.js";
import { documentSearchParts, parseDocumentSearch, uuidPrefixRange } from "../../../shared/document-search.js";
import { escapeLike } from "../../lib/search-text.js";

/** Past this many documents of the matching patients (and ids), the trigram index on busca answers instead. */
export const NAME_CANDIDATES_MAX = 2000;

/**
 * The candidates of a text search (decision 036): the documents whose "título procedimento" holds
 * the text (its own trigram index), whose patient has a matching frozen name (contrato_nomes, a
 * few thousand rows) or, when the text's last word could begin an id, whose id begins so. Every
 * match of busca is a candidate (documentSearchParts says why), so "candidate and busca like" is
 * exactly "busca like". A SQL condition on contratos, or null when the trigram index on busca
 * should answer: a short id, a text documentSearchParts leaves to it, or more than
 * NAME_CANDIDATES_MAX documents of matching patients and ids.
 *
 * Why: a patient's name ("maria silva") is made of trigrams found in a tenth of a clinic's
 * documents each; the trigram index on busca intersects those long lists even when nobody matches
 * (~20–30 ms at 1M documents), while the same text among distinct names and in the title part is
 * answered in about a millisecond.
 */
export async function searchCandidates(tx: Tx, tenantId: string, q: string | undefined): Promise<SQL | null> {
  const search = q ? parseDocumentSearch(q) : null;
  if (search?.kind !== "text") return null;
  const [normalized] = await rawRows<{ text: string }>(
    tx,
    sql`select app_search_text(${escapeLike(search.term)}) as text`,
  );
  const parts = normalized ? documentSearchParts(normalized.text) : null;
  if (!parts) return null;
  const names = sql.join(
    parts.names.map((pattern) => sql`nome like ${pattern}`),
    sql` or `,
  );
  const [hit] = await rawRows<{ ids: string | null; documents: number | null }>(
    tx,
    sql`with hit as (select distinct paciente_id from contrato_nomes where tenant_id = ${tenantId} and (${names}))
        select (select string_agg(paciente_id::text, ',') from hit) as ids,
               (select sum(n)::int from contrato_nomes where tenant_id = ${tenantId} and paciente_id in (select paciente_id from hit)) as documents`,
  );
  let documents = hit?.documents ?? 0;
  if (documents > NAME_CANDIDATES_MAX) return null;
  const arms = [
    sql`app_search_text(coalesce(${contratos.titulo}, '') || ' ' || coalesce(${contratos.procedimento}, '')) like ${`%${normalized?.text}%`}`,
  ];
  if (hit?.ids) arms.push(sql`${contratos.paciente_id} = any(${`{${hit.ids}}`}::uuid[])`);
  const idRange = parts.idPrefix === null ? null : uuidPrefixRange(parts.idPrefix);
  if (idRange) {
    const ids = sql`${contratos.tenant_id} = ${tenantId} and ${contratos.id} between ${idRange[0]} and ${idRange[1]}`;
    const [row] = await rawRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from (select 1 from ${contratos} where ${ids} limit ${NAME_CANDIDATES_MAX + 1}) x`,
    );
    documents += row?.n ?? 0;
    arms.push(sql`${contratos.id} between ${idRange[0]} and ${idRange[1]}`);
  }
  if (documents > NAME_CANDIDATES_MAX) return null;
  return sql`(${sql.join(arms, sql` or `)})`;
}
