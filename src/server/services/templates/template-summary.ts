import { and, eq, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { profiles, templates } from "../../../db/schema.js";

/**
 * The list row of a template: its columns, the creator's name, the current version number and
 * how many documents use ANY of its versions. The two figures are correlated subqueries on
 * indexed columns, evaluated inside the one query that reads the page (no query per row).
 */
export const summaryFields = {
  template: {
    id: templates.id,
    tenant_id: templates.tenant_id,
    titulo: templates.titulo,
    especialidade: templates.especialidade,
    categoria: templates.categoria,
    status: templates.status,
    created_by: templates.created_by,
    created_at: templates.created_at,
    updated_at: templates.updated_at,
  },
  criador_nome: profiles.nome,
  /** created_at to the microsecond (a JS Date keeps milliseconds): the keyset cursor needs it. */
  created_at_exact: sql<string>`to_char(${templates.created_at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  versao_atual: sql<number | null>`(select max(v.version_number) from template_versions v
    where v.tenant_id = ${templates.tenant_id} and v.template_id = ${templates.id})`.mapWith((value) =>
    value === null ? null : Number(value),
  ),
  usos: sql<number>`(select count(*) from contratos c
    join template_versions v on v.tenant_id = c.tenant_id and v.id = c.template_version_id
    where v.tenant_id = ${templates.tenant_id} and v.template_id = ${templates.id})`.mapWith(Number),
};

const creatorJoin: SQL = and(eq(profiles.id, templates.created_by), eq(profiles.tenant_id, templates.tenant_id)) as SQL;

/** SELECT summaries FROM templates LEFT JOIN the creator's profile: add WHERE/ORDER/LIMIT. */
export function selectSummaries(tx: DbOrTx) {
  return tx.select(summaryFields).from(templates).leftJoin(profiles, creatorJoin);
}

export type SummaryRow = Awaited<ReturnType<ReturnType<typeof selectSummaries>["execute"]>>[number];
