import { sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { rawRows } from "../../../db/raw.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { UNREAD_COUNT_CAP } from "../../../shared/notices/notice-kinds.js";
import type { UnreadNotices } from "../../../shared/notices/notice-schemas.js";
import type { Actor } from "../../policies/roles.js";
import { noticeScopeOf } from "./notice-scope.js";
import { isRead, type NoticeScope, noticeRows } from "./notice-sources.js";
import { readNoticeState } from "./notice-state.js";

/** Unread notices of a scope, counted up to UNREAD_COUNT_CAP (the badge says "99+" past 99). */
export async function countUnread(tx: Tx, scope: NoticeScope, readAllAt: Date | null): Promise<number> {
  const [row] = await rawRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from (
      select 1 from (${noticeRows(scope)}) k where not ${isRead(scope, readAllAt)} limit ${UNREAD_COUNT_CAP}
    ) unread`,
  );
  return Number(row?.n ?? 0);
}

/** GET /api/notices/unread-count: the bell's and the phone bar's badge. Reads only. */
export async function countUnreadNotices(db: Db, actor: Actor, now = new Date()): Promise<UnreadNotices> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const state = await readNoticeState(tx, actor);
    return { nao_lidos: await countUnread(tx, noticeScopeOf(actor, state, now), state.readAllAt) };
  });
}
