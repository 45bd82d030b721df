import { and, asc, eq, getTableColumns, gt, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { ExportTable } from "./clinic-export-tables.js";

export type ExportRow = Record<string, unknown>;

const DEFAULT_PAGE_SIZE = 500;

/** The columns a table exports, by their SQL names (excluded ones left out), plus its computed ones. */
export function exportedColumns(spec: ExportTable): Record<string, AnyPgColumn | SQL> {
  const excluded = new Set(spec.excluded?.columns ?? []);
  const columns: Record<string, AnyPgColumn | SQL> = {};
  for (const column of Object.values(getTableColumns(spec.table)) as AnyPgColumn[]) {
    if (!excluded.has(column.name)) columns[column.name] = column;
  }
  return { ...columns, ...spec.extra };
}

/** Rows after `cursor` (the key values of the last row of the previous page). */
function afterCursor(key: AnyPgColumn[], cursor: unknown[]): SQL | undefined {
  if (key.length === 1) return gt(key[0] as AnyPgColumn, cursor[0]);
  return sql`(${sql.join(key, sql`, `)}) > (${sql.join(
    cursor.map((value) => sql`${value}`),
    sql`, `,
  )})`;
}

/**
 * Every row of one clinic in `spec`'s table, a page at a time (keyset on its unique key, each page
 * its own short transaction: a slow download never holds the database). Tenant tables are read
 * under the clinic's row-level security; the few tenant transactions may not read at all
 * (jobs, the audit chain's head and anchors) are read as the server's role, filtered by tenant.
 */
export async function* tablePages(db: Db, tenantId: string, spec: ExportTable): AsyncGenerator<ExportRow[]> {
  const columns = exportedColumns(spec);
  const keyNames = spec.key.map((column) => column.name);
  const pageSize = spec.pageSize ?? DEFAULT_PAGE_SIZE;
  let cursor: unknown[] | null = null;
  for (;;) {
    const after: unknown[] | null = cursor;
    const read = (tx: DbOrTx) =>
      tx
        .select(columns)
        .from(spec.table)
        .where(and(eq(spec.tenantColumn, tenantId), after ? afterCursor(spec.key, after) : undefined))
        .orderBy(...spec.key.map((column) => asc(column)))
        .limit(pageSize);
    const rows = (spec.serverRole ? await read(db) : await withTenant(db, tenantId, read)) as ExportRow[];
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1] as ExportRow;
    cursor = keyNames.map((name) => last[name]);
  }
}
