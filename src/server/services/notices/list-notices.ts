import { sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../../db/client.js";
import { rawRows } from "../../../db/raw.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { NoticeList, noticeListQuerySchema } from "../../../shared/notices/notice-schemas.js";
import type { NoticeKind } from "../../../shared/notices/notice-kinds.js";
import { decodeCursor, encodeCursor } from "../../lib/cursor.js";
import type { Actor } from "../../policies/roles.js";
import { presentNotice } from "../../presenters/notice.js";
import { countUnread } from "./count-unread-notices.js";
import { loadNoticeDetails, type NoticeRow } from "./load-notice-details.js";
import { noticeScopeOf } from "./notice-scope.js";
import { isRead, noticeRows } from "./notice-sources.js";
import { readNoticeState, registerVisit } from "./notice-state.js";

type ListQuery = z.output<typeof noticeListQuerySchema>;

/**
 * One page of the user's notices, newest first (keyset on (at, id)), with the unread count.
 * The first page is a visit to Avisos: it moves "a sua última visita" when the last one is over.
 */
export async function listNotices(db: Db, actor: Actor, query: ListQuery, now = new Date()): Promise<NoticeList> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  return withTenant(db, actor.tenantId, async (tx) => {
    const state = cursor ? await readNoticeState(tx, actor) : await registerVisit(tx, actor, now);
    const scope = noticeScopeOf(actor, state, now);
    const after = cursor ? sql`where (k.at, k.id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)` : sql``;
    const rows = await rawRows<NoticeRow>(
      tx,
      sql`select k.kind, k.id::text as id, k.key, ${isRead(scope, state.readAllAt)} as lido,
          to_char(k.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
        from (${noticeRows(scope)}) k
        ${after}
        order by k.at desc, k.id desc
        limit ${query.limit + 1}`,
    );
    const page = rows
      .slice(0, query.limit)
      .map((row) => ({ ...row, kind: row.kind as NoticeKind, lido: Boolean(row.lido) }));
    const details = await loadNoticeDetails(tx, actor.tenantId, page);
    const last = page[page.length - 1];
    return {
      items: page.flatMap((row) => presentNotice(row, details, now) ?? []),
      next_cursor: rows.length > query.limit && last ? encodeCursor({ createdAt: last.at, id: last.id }) : null,
      nao_lidos: await countUnread(tx, scope, state.readAllAt),
    };
  });
}
