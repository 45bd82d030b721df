import { type SQL, sql } from "drizzle-orm";

/** Makes % and _ (and the escape itself) literal in a LIKE pattern. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * `term` anywhere in any of `columns`, case- and accent-insensitively (app_search_text, migration
 * 0002). For the small per-clinic libraries (procedures, content items) the match is computed at
 * query time, behind row-level security; no trigram index is needed at that size.
 */
export function containsText(columns: SQL[], term: string): SQL {
  const haystack = sql.join(
    columns.map((column) => sql`coalesce(${column}, '')`),
    sql` || ' ' || `,
  );
  return sql`app_search_text(${haystack}) like '%' || app_search_text(${escapeLike(term)}) || '%'`;
}
