import { desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "../../../db/client.js";
import { pacientes } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { PatientList, patientListQuerySchema } from "../../../shared/schemas/patient.js";
import { afterCursor, cursorTime, decodeCursor, encodeCursor } from "../../lib/cursor.js";
import type { Actor } from "../../policies/roles.js";
import { presentPatient } from "../../presenters/patient.js";
import { countAllPatients } from "./count-patients.js";
import { countPatientDocuments } from "./count-patient-documents.js";
import { allOf, patientConditions } from "./patient-filters.js";

type ListQuery = z.output<typeof patientListQuerySchema>;
type PatientRow = typeof pacientes.$inferSelect & { cursor_at: string };

const newestFirst = [desc(pacientes.created_at), desc(pacientes.id)];

const after = afterCursor;

/**
 * Without a search, the page walks the (tenant_id, created_at, id) index and the total is a
 * separate count. With a search, the trigram scan is the costly part, so it runs once: a window
 * count over the matches rides along with the page.
 */
interface PageAndTotal {
  rows: PatientRow[];
  total: number;
  documents: Map<string, number>;
}

async function pageAndTotal(tx: Tx, tenantId: string, conditions: SQL[], query: ListQuery): Promise<PageAndTotal> {
  const page = await pageRows(tx, tenantId, conditions, query);
  const documents = await countPatientDocuments(
    tx,
    tenantId,
    page.rows.map((row) => row.id),
  );
  return { ...page, documents };
}

async function pageRows(
  tx: Tx,
  tenantId: string,
  conditions: SQL[],
  query: ListQuery,
): Promise<Omit<PageAndTotal, "documents">> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const pageConditions = cursor ? [...conditions, after(cursor, pacientes.created_at, pacientes.id)] : conditions;
  if (!query.q) {
    const rows = await tx
      .select({ ...getTableColumns(pacientes), cursor_at: cursorTime(pacientes.created_at) })
      .from(pacientes)
      .where(allOf(pageConditions))
      .orderBy(...newestFirst)
      .limit(query.limit + 1);
    // Only the tenant condition: the kept counter answers; with filters, count the matches.
    const total =
      conditions.length === 1
        ? await countAllPatients(tx, tenantId)
        : ((
            await tx
              .select({ n: sql<number>`count(*)::int` })
              .from(pacientes)
              .where(allOf(conditions))
          )[0]?.n ?? 0);
    return { rows, total };
  }
  // The window runs over every match (narrow rows: id, created_at); the cursor filters outside
  // it, so the total stays whole; only the page's rows are then read in full, by primary key.
  const matched = tx
    .select({
      id: pacientes.id,
      created_at: pacientes.created_at,
      total: sql<number>`(count(*) over ())::int`.as("total"),
    })
    .from(pacientes)
    .where(allOf(conditions))
    .as("matched");
  const page = tx
    .select()
    .from(matched)
    .where(cursor ? after(cursor, sql`${matched.created_at}`, sql`${matched.id}`) : undefined)
    .orderBy(desc(matched.created_at), desc(matched.id))
    .limit(query.limit + 1)
    .as("page");
  const rows = await tx
    .select({ ...getTableColumns(pacientes), total: page.total, cursor_at: cursorTime(pacientes.created_at) })
    .from(page)
    .innerJoin(pacientes, eq(pacientes.id, page.id))
    .orderBy(desc(page.created_at), desc(page.id));
  const total =
    rows[0]?.total ??
    (
      await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(pacientes)
        .where(allOf(conditions))
    )[0]?.n ??
    0;
  return { rows: rows.map(({ total: _total, ...row }) => row), total };
}

/** One page of the clinic's patients, newest first, searched and filtered on the server. */
export async function listPatients(db: Db, actor: Actor, query: ListQuery, now = new Date()): Promise<PatientList> {
  const conditions = patientConditions(actor.tenantId, query, now);
  // A text search cannot run under row-level security: PostgreSQL refuses to use an index for a
  // non-leakproof operator (LIKE) before the policy's check, so the trigram index would be
  // ignored and every row scanned. The search therefore relies on its tenant WHERE clause alone
  // (docs/decisions/004-search-without-rls.md); everything else runs behind both walls.
  const run = query.q
    ? (work: (tx: Tx) => Promise<PageAndTotal>) => db.transaction(work)
    : (work: (tx: Tx) => Promise<PageAndTotal>) => withTenant(db, actor.tenantId, work);
  return run(async (tx) => pageAndTotal(tx, actor.tenantId, conditions, query)).then(({ rows, total, documents }) => {
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      items: page.map((row) => presentPatient(row, documents.get(row.id) ?? 0)),
      total,
      next_cursor: rows.length > query.limit && last ? encodeCursor({ createdAt: last.cursor_at, id: last.id }) : null,
    };
  });
}
