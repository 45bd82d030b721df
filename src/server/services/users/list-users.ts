import { and, desc, eq, getTableColumns, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { UserList, userListQuerySchema } from "../../../shared/schemas/users.js";
import { afterCursor, cursorTime, decodeCursor, encodeCursor } from "../../lib/cursor.js";
import { containsText, escapeLike } from "../../lib/search-text.js";
import type { Actor } from "../../policies/roles.js";
import { assertUsersManager } from "./access.js";
import { invitationColumns } from "./invitations.js";
import { presentUser } from "./present-user.js";

type ListQuery = z.output<typeof userListQuerySchema>;

/**
 * One page of the clinic's users, newest first (keyset on created_at, id), searched on the
 * server by name or e-mail (case and accents ignored) or CPF digits. A clinic has tens of users,
 * not thousands: the search runs behind row-level security, without a trigram index.
 */
export async function listUsers(db: Db, actor: Actor, query: ListQuery, now = new Date()): Promise<UserList> {
  return withTenant(db, actor.tenantId, async (tx) => {
    await assertUsersManager(tx, actor);
    const conditions: SQL[] = [eq(profiles.tenant_id, actor.tenantId)];
    if (query.q) {
      const digits = query.q.replace(/\D/g, "");
      const byText = containsText([sql`${profiles.nome}`, sql`${profiles.email}`], query.q);
      const byCpf =
        digits.length >= 3 && /^[\d.\-\s]+$/.test(query.q)
          ? sql`${profiles.cpf} like ${`%${escapeLike(digits)}%`}`
          : undefined;
      conditions.push(byCpf ? (or(byText, byCpf) as SQL) : byText);
    }
    const total =
      (
        await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(profiles)
          .where(and(...conditions))
      )[0]?.n ?? 0;
    const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
    const rows = await tx
      .select({ ...getTableColumns(profiles), ...invitationColumns, cursor_at: cursorTime(profiles.created_at) })
      .from(profiles)
      .where(and(...conditions, ...(cursor ? [afterCursor(cursor, profiles.created_at, profiles.id)] : [])))
      .orderBy(desc(profiles.created_at), desc(profiles.id))
      .limit(query.limit + 1);
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      items: page.map((row) => presentUser(row, row, now)),
      total,
      next_cursor: rows.length > query.limit && last ? encodeCursor({ createdAt: last.cursor_at, id: last.id }) : null,
    };
  });
}
