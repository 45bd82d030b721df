import { desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Db, Tx } from "../../../db/client.js";
import { contratos, pacientes, profiles, templates, templateVersions } from "../../../db/schema.js";
import { rawRows } from "../../../db/raw.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { DocumentList, documentListQuerySchema } from "../../../shared/schemas/document.js";
import { afterCursor, cursorTime, decodeCursor, encodeCursor } from "../../lib/cursor.js";
import type { Actor } from "../../policies/roles.js";
import { presentDocumentSummary } from "../../presenters/document.js";
import { countAllDocuments } from "./count-all-documents.js";
import { documentConditions, documentSearchConditions, professionalPending } from "./document-filters.js";
import { searchCandidates } from "./document-search-candidates.js";

type ListQuery = z.output<typeof documentListQuerySchema>;

const medico = alias(profiles, "medico");
const criador = alias(profiles, "criador");

/** The columns of a list row: the document and the names around it (one query, no N+1). */
export const summaryColumns = {
  id: contratos.id,
  titulo: contratos.titulo,
  procedimento: contratos.procedimento,
  status: contratos.status,
  created_at: contratos.created_at,
  expiracao_at: contratos.expiracao_at,
  data_procedimento: contratos.data_procedimento,
  paciente_id: contratos.paciente_id,
  paciente_nome: pacientes.nome,
  profissional_nome: medico.nome,
  criador_nome: criador.nome,
  template_titulo: templates.titulo,
  versao: templateVersions.version_number,
  profissional_pendente: professionalPending().mapWith(Boolean),
  recusado_at: contratos.recusado_at,
  revogado_at: contratos.revogado_at,
};

/** contratos joined with the patient, physician, creator and template version (tenant-bound). */
export function summarySelect<Extra extends Record<string, SQL>>(tx: Tx, extra?: Extra) {
  return tx
    .select({ ...summaryColumns, ...(extra ?? ({} as Extra)) })
    .from(contratos)
    .leftJoin(pacientes, eq(pacientes.id, contratos.paciente_id))
    .leftJoin(medico, eq(medico.id, contratos.medico_responsavel_id))
    .leftJoin(criador, eq(criador.id, contratos.created_by))
    .leftJoin(templateVersions, eq(templateVersions.id, contratos.template_version_id))
    .leftJoin(templates, eq(templates.id, templateVersions.template_id));
}

const all = (conditions: SQL[]) => sql.join(conditions, sql` and `);

/** A search looks for its page among this many newest documents first (see listDocuments). */
export const SEARCH_WINDOW = 5000;
/** Filtered lists count their matches up to here; beyond it the total reads "mais de 1.000". */
export const FILTERED_COUNT_CAP = 1000;

/**
 * The ids of a search's page when they are among the newest SEARCH_WINDOW documents that pass the
 * other filters: the window is walked on (tenant_id, created_at, id) and searched row by row, which
 * for a frequent term ("toxina": one document in eight) is far cheaper than fetching and sorting
 * every match the trigram index finds. null when the window holds less than a full page (a rare
 * term: the trigram index answers it, with few matches to sort).
 */
async function searchPageInWindow(
  tx: Tx,
  filters: SQL[],
  searchOnWindow: SQL[],
  pageSize: number,
): Promise<string[] | null> {
  const rows = await rawRows<{ id: string }>(
    tx,
    sql`select r.id from (
          select ${contratos.id} as id, ${contratos.busca} as busca, ${contratos.created_at} as created_at
            from ${contratos} where ${all(filters)}
           order by ${contratos.created_at} desc, ${contratos.id} desc
           limit ${SEARCH_WINDOW}
        ) r
        where ${all(searchOnWindow)}
        order by r.created_at desc, r.id desc
        limit ${pageSize}`,
  );
  return rows.length === pageSize ? rows.map((row) => row.id) : null;
}

/**
 * The ids of a search's page among its candidates (document-search-candidates.ts), newest first.
 * OFFSET 0 keeps busca's condition out of the candidates' scan, so PostgreSQL reads the candidates'
 * indexes (title part, patients) and not the trigram index on busca.
 */
async function searchPageInCandidates(
  tx: Tx,
  candidates: SQL[],
  searchOnRows: SQL[],
  pageSize: number,
): Promise<string[]> {
  const rows = await rawRows<{ id: string }>(
    tx,
    sql`select r.id from (
          select ${contratos.id} as id, ${contratos.busca} as busca, ${contratos.created_at} as created_at
            from ${contratos} where ${all(candidates)} offset 0
        ) r
        where ${all(searchOnRows)}
        order by r.created_at desc, r.id desc
        limit ${pageSize}`,
  );
  return rows.map((row) => row.id);
}

type Total = { total: number; total_capped: boolean };
const capped = (n: number): Total =>
  n > FILTERED_COUNT_CAP ? { total: FILTERED_COUNT_CAP, total_capped: true } : { total: n, total_capped: false };

/** count(*) of the matches, stopping past FILTERED_COUNT_CAP. */
async function countMatches(tx: Tx, conditions: SQL[]): Promise<Total> {
  const [row] = await rawRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from (select 1 from ${contratos} where ${all(conditions)} limit ${FILTERED_COUNT_CAP + 1}) matches`,
  );
  return capped(row?.n ?? 0);
}

/** count(*) of the candidates that match, stopping past FILTERED_COUNT_CAP. */
async function countCandidateMatches(tx: Tx, candidates: SQL[], searchOnRows: SQL[]): Promise<Total> {
  const [row] = await rawRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from (
          select 1 from (select ${contratos.id} as id, ${contratos.busca} as busca from ${contratos} where ${all(candidates)} offset 0) r
           where ${all(searchOnRows)} limit ${FILTERED_COUNT_CAP + 1}
        ) matches`,
  );
  return capped(row?.n ?? 0);
}

/** How many of the newest documents a frequent term's count reads before asking the trigram index. */
export const COUNT_WINDOW = 20_000;

/**
 * The count of a term frequent enough to fill a page in the newest window: the trigram index would
 * build a bitmap of every match (tens of ms for one document in eight), so the newest COUNT_WINDOW
 * documents are read in order first, stopping at the cap's first match past it (a term in one
 * document of eight reads ~8,000, not 20,000). Past the cap there, or when the window held every
 * document, that is the answer; otherwise the candidates or the trigram index count.
 */
async function countFrequentTerm(
  tx: Tx,
  filters: SQL[],
  searchOnWindow: SQL[],
  countAll: () => Promise<Total>,
): Promise<Total> {
  const newest = (columns: SQL) =>
    sql`select ${columns} from ${contratos} where ${all(filters)} order by ${contratos.created_at} desc, ${contratos.id} desc limit ${COUNT_WINDOW}`;
  const [found] = await rawRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from (
          select 1 from (${newest(sql`${contratos.id} as id, ${contratos.busca} as busca`)}) r where ${all(searchOnWindow)} limit ${FILTERED_COUNT_CAP + 1}
        ) matches`,
  );
  const matches = found?.n ?? 0;
  if (matches > FILTERED_COUNT_CAP) return capped(matches);
  const [read] = await rawRows<{ n: number }>(tx, sql`select count(*)::int as n from (${newest(sql`1`)}) r`);
  if ((read?.n ?? 0) < COUNT_WINDOW) return capped(matches);
  return countAll();
}

/**
 * One page of the clinic's documents, newest first, searched and filtered on the server. The
 * total counts the matches (up to FILTERED_COUNT_CAP when filtered); the page walks
 * (tenant_id, created_at, id), the newest window of it, the search's candidates (title part and
 * patients' names, decision 036) or the trigram index on busca.
 */
export async function listDocuments(db: Db, actor: Actor, query: ListQuery, now = new Date()): Promise<DocumentList> {
  const filters = documentConditions(actor.tenantId, query, now, { search: false });
  const search = documentSearchConditions(query);
  const conditions = [...filters, ...search];
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const pageSize = query.limit + 1;
  // Text search runs outside row-level security so PostgreSQL may use the trigram index; its
  // tenant WHERE clause is the wall (docs/decisions/004-search-without-rls.md).
  const run = <T>(work: (tx: Tx) => Promise<T>) =>
    search.length > 0 ? db.transaction(work) : withTenant(db, actor.tenantId, work);
  const { rows, total, total_capped } = await run(async (tx) => {
    const after = cursor ? [afterCursor(cursor, contratos.created_at, contratos.id)] : [];
    const searchOnWindow = documentSearchConditions(query, sql`r.busca`, sql`r.id`);
    const windowIds =
      search.length > 0 ? await searchPageInWindow(tx, [...filters, ...after], searchOnWindow, pageSize) : null;
    // Past the window (a rare term, or a count), the candidates answer when there are some.
    let candidates: Promise<SQL | null> | undefined;
    const searchCandidatesOnce = () =>
      (candidates ??= search.length > 0 ? searchCandidates(tx, actor.tenantId, query.q) : Promise.resolve(null));
    let pageIds = windowIds;
    if (!pageIds && search.length > 0) {
      const candidate = await searchCandidatesOnce();
      if (candidate)
        pageIds = await searchPageInCandidates(tx, [...filters, ...after, candidate], searchOnWindow, pageSize);
    }
    const pageConditions = pageIds ? [filters[0]!, inArray(contratos.id, pageIds)] : [...conditions, ...after];
    const rows =
      pageIds?.length === 0
        ? []
        : await summarySelect(tx, { cursor_at: cursorTime(contratos.created_at) })
            .where(all(pageConditions))
            .orderBy(desc(contratos.created_at), desc(contratos.id))
            .limit(pageSize);
    // Only the tenant condition: the kept counter answers. A first page that is not full holds
    // every match. Otherwise count the matches.
    if (conditions.length === 1)
      return { rows, total: await countAllDocuments(tx, actor.tenantId), total_capped: false };
    if (!cursor && rows.length < pageSize) return { rows, total: rows.length, total_capped: false };
    const countAll = async () => {
      const candidate = await searchCandidatesOnce();
      return candidate
        ? countCandidateMatches(tx, [...filters, candidate], searchOnWindow)
        : countMatches(tx, conditions);
    };
    const total = windowIds ? await countFrequentTerm(tx, filters, searchOnWindow, countAll) : await countAll();
    return { rows, ...total };
  });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => presentDocumentSummary(row, now)),
    total,
    total_capped,
    next_cursor: rows.length > query.limit && last ? encodeCursor({ createdAt: last.cursor_at, id: last.id }) : null,
  };
}
