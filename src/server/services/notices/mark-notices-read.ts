import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { rawRows } from "../../../db/raw.js";
import { noticeReads } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { parseNoticeKey } from "../../../shared/notices/notice-kinds.js";
import type { NoticeReadInput, UnreadNotices } from "../../../shared/notices/notice-schemas.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { countUnread } from "./count-unread-notices.js";
import { noticeScopeOf } from "./notice-scope.js";
import { noticeRows } from "./notice-sources.js";
import { markAllNoticesRead, readNoticeState } from "./notice-state.js";

/**
 * POST /api/notices/read: the given notices, or all of them up to now. A key must name a notice
 * this user sees now — another clinic's, another professional's, or one already resolved (the
 * document was signed, the upload retried) is 404, and nothing is marked.
 */
export async function markNoticesRead(
  db: Db,
  actor: Actor,
  input: NoticeReadInput,
  now = new Date(),
): Promise<UnreadNotices> {
  return withTenant(db, actor.tenantId, async (tx) => {
    if (input.todas) {
      const state = await markAllNoticesRead(tx, actor, now);
      return { nao_lidos: await countUnread(tx, noticeScopeOf(actor, state, now), state.readAllAt) };
    }
    const keys = [...new Set(input.chaves ?? [])];
    const ids = [...new Set(keys.map((key) => parseNoticeKey(key)?.id).filter((id): id is string => !!id))];
    const state = await readNoticeState(tx, actor);
    const scope = noticeScopeOf(actor, state, now, ids);
    const found = await rawRows<{ key: string; at: string }>(
      tx,
      sql`select k.key, to_char(k.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
        from (${noticeRows(scope)}) k
        where k.key in (${sql.join(
          keys.map((key) => sql`${key}`),
          sql`, `,
        )})`,
    );
    if (found.length !== keys.length) {
      throw new AppError("NOT_FOUND", "Aviso não encontrado ou já resolvido. Atualize a lista de avisos.");
    }
    await tx
      .insert(noticeReads)
      .values(
        found.map((row) => ({
          tenant_id: actor.tenantId,
          profile_id: actor.profileId,
          notice_key: row.key,
          notice_at: new Date(row.at),
          read_at: now,
        })),
      )
      .onConflictDoNothing();
    return { nao_lidos: await countUnread(tx, noticeScopeOf(actor, state, now), state.readAllAt) };
  });
}
