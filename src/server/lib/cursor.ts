import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { isIsoInstant } from "../../shared/schemas/safe-input.js";
import { AppError } from "../errors.js";

/**
 * Keyset cursor over (created_at desc, id desc), opaque to clients. created_at is kept to the
 * microsecond, as PostgreSQL stores it: a millisecond Date would skip rows created in the same
 * millisecond as the page's last one.
 */
export interface CreatedCursor {
  /** ISO 8601 UTC with microseconds, e.g. 2026-11-22T00:30:29.123456Z. */
  createdAt: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(cursor: CreatedCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`).toString("base64url");
}

export function decodeCursor(value: string): CreatedCursor {
  const [createdAt, id, ...rest] = Buffer.from(value, "base64url").toString("utf8").split("|");
  if (rest.length > 0 || !createdAt || !id || !isIsoInstant(createdAt) || !UUID.test(id)) {
    throw new AppError("BAD_REQUEST", "Cursor de paginação inválido.");
  }
  return { createdAt, id };
}

/** created_at as the cursor's text (UTC, microseconds), to select beside a page's rows. */
export function cursorTime(column: AnyPgColumn | SQL): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** Rows strictly after the cursor in newest-first order. */
export function afterCursor(cursor: CreatedCursor, createdAt: AnyPgColumn | SQL, id: AnyPgColumn | SQL): SQL {
  return sql`(${createdAt}, ${id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;
}
