import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { rawRows } from "../../db/raw.js";

export interface TableInfo {
  name: string;
  /** Stored columns in table order (generated columns are left out: the target computes them). */
  columns: string[];
  /** Each stored column's type as PostgreSQL spells it (for the casts of a restore). */
  types: Record<string, string>;
  primaryKey: string[];
}

/**
 * Every table of the public schema, parents before children (foreign keys), ties by name: the order
 * a backup writes them and a restore loads them.
 */
export async function listTables(db: DbOrTx): Promise<TableInfo[]> {
  const columns = await rawRows<{ table_name: string; column_name: string; type: string; generated: boolean }>(
    db,
    sql`select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type,
               a.attgenerated <> '' as generated
          from pg_attribute a
          join pg_class c on c.oid = a.attrelid
         where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
           and a.attnum > 0 and not a.attisdropped
         order by c.relname, a.attnum`,
  );
  const keys = await rawRows<{ table_name: string; column_name: string }>(
    db,
    sql`select c.relname as table_name, a.attname as column_name
          from pg_index i
          join pg_class c on c.oid = i.indrelid
          join lateral unnest(i.indkey) with ordinality as k(attnum, position) on true
          join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
         where c.relnamespace = 'public'::regnamespace and i.indisprimary
         order by c.relname, k.position`,
  );
  const references = await rawRows<{ child: string; parent: string }>(
    db,
    sql`select distinct c.relname as child, p.relname as parent
          from pg_constraint f
          join pg_class c on c.oid = f.conrelid
          join pg_class p on p.oid = f.confrelid
         where f.contype = 'f' and c.relnamespace = 'public'::regnamespace and p.relnamespace = 'public'::regnamespace`,
  );
  const tables = new Map<string, TableInfo>();
  for (const column of columns) {
    const table = tables.get(column.table_name) ?? { name: column.table_name, columns: [], types: {}, primaryKey: [] };
    tables.set(column.table_name, table);
    if (column.generated) continue;
    table.columns.push(column.column_name);
    table.types[column.column_name] = column.type;
  }
  for (const key of keys) tables.get(key.table_name)?.primaryKey.push(key.column_name);
  const parents = new Map<string, Set<string>>();
  for (const { child, parent } of references) {
    if (child === parent) continue;
    const set = parents.get(child) ?? new Set<string>();
    set.add(parent);
    parents.set(child, set);
  }
  return dependencyOrder(
    [...tables.values()].sort((a, b) => a.name.localeCompare(b.name)),
    parents,
  );
}

/** Kahn's algorithm, names in alphabetical order among the ready ones; a cycle falls back to name order. */
function dependencyOrder(tables: TableInfo[], parents: Map<string, Set<string>>): TableInfo[] {
  const ordered: TableInfo[] = [];
  const done = new Set<string>();
  const names = new Set(tables.map((t) => t.name));
  let remaining = tables;
  while (remaining.length > 0) {
    const ready = remaining.filter((t) => [...(parents.get(t.name) ?? [])].every((p) => done.has(p) || !names.has(p)));
    const next = ready.length > 0 ? ready : remaining.slice(0, 1);
    for (const table of next) {
      ordered.push(table);
      done.add(table.name);
    }
    remaining = remaining.filter((t) => !done.has(t.name));
  }
  return ordered;
}

/** A quoted identifier (names come from the catalogue, quoted all the same). */
export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;
