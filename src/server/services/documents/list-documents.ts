import { desc, eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { Db, Tx } from "../../../db/client.js";
import { contratos, pacientes, profiles, templates, templateVersions } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { DocumentList, documentListQuerySchema } from "../../../shared/schemas/document.js";
import { afterCursor, cursorTime, decodeCursor, encodeCursor } from "../../lib/cursor.js";
import type { Actor } from "../../policies/roles.js";
import { presentDocumentSummary } from "../../presenters/document.js";
import { countAllDocuments } from "./count-all-documents.js";
import { documentConditions } from "./document-filters.js";

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

/**
 * One page of the clinic's documents, newest first, searched and filtered on the server. The
 * total counts every match; the page walks (tenant_id, created_at, id) or the trigram index.
 */
export async function listDocuments(db: Db, actor: Actor, query: ListQuery, now = new Date()): Promise<DocumentList> {
  const conditions = documentConditions(actor.tenantId, query, now);
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  // Text search runs outside row-level security so PostgreSQL may use the trigram index; its
  // tenant WHERE clause is the wall (docs/decisions/004-search-without-rls.md).
  const run = <T>(work: (tx: Tx) => Promise<T>) => (query.q ? db.transaction(work) : withTenant(db, actor.tenantId, work));
  const { rows, total } = await run(async (tx) => {
    const pageConditions = cursor ? [...conditions, afterCursor(cursor, contratos.created_at, contratos.id)] : conditions;
    const rows = await summarySelect(tx, { cursor_at: cursorTime(contratos.created_at) })
      .where(all(pageConditions))
      .orderBy(desc(contratos.created_at), desc(contratos.id))
      .limit(query.limit + 1);
    // Only the tenant condition: the kept counter answers; otherwise count the matches.
    if (conditions.length === 1) return { rows, total: await countAllDocuments(tx, actor.tenantId) };
    const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(contratos).where(all(conditions));
    return { rows, total: count?.n ?? 0 };
  });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => presentDocumentSummary(row, now)),
    total,
    nextCursor: rows.length > query.limit && last ? encodeCursor({ createdAt: last.cursor_at, id: last.id }) : null,
  };
}
