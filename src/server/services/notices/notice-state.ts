import { and, eq, lte } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { noticeReads, noticeUserStates } from "../../../db/schema.js";
import { nextVisit, type NoticeVisits } from "../../../shared/notices/notice-kinds.js";
import type { Actor } from "../../policies/roles.js";

/** A user's read marks and visits to Avisos (decision 028). */
export interface NoticeState extends NoticeVisits {
  readAllAt: Date | null;
}

const whose = (actor: Actor) =>
  and(eq(noticeUserStates.tenant_id, actor.tenantId), eq(noticeUserStates.profile_id, actor.profileId));

/** The user's state; never having opened Avisos is all nulls. */
export async function readNoticeState(tx: Tx, actor: Actor, lock = false): Promise<NoticeState> {
  const query = tx.select().from(noticeUserStates).where(whose(actor)).limit(1);
  const [row] = lock ? await query.for("update") : await query;
  return {
    readAllAt: row?.read_all_at ?? null,
    visitAt: row?.visit_at ?? null,
    previousVisitAt: row?.previous_visit_at ?? null,
  };
}

/** The user's row, made once and locked for the rest of the transaction. */
async function lockedState(tx: Tx, actor: Actor): Promise<NoticeState> {
  await tx
    .insert(noticeUserStates)
    .values({ tenant_id: actor.tenantId, profile_id: actor.profileId })
    .onConflictDoNothing();
  return readNoticeState(tx, actor, true);
}

/** Opening Avisos at `now`: continues the current visit or starts a new one (nextVisit). */
export async function registerVisit(tx: Tx, actor: Actor, now: Date): Promise<NoticeState> {
  const state = await lockedState(tx, actor);
  const visits = nextVisit(state, now);
  await tx
    .update(noticeUserStates)
    .set({ visit_at: visits.visitAt, previous_visit_at: visits.previousVisitAt, updated_at: now })
    .where(whose(actor));
  return { ...state, ...visits };
}

/**
 * "Marcar todas como lidas": every notice up to `now` is read, without a row per notice; the
 * single keys it covers are no longer needed.
 */
export async function markAllNoticesRead(tx: Tx, actor: Actor, now: Date): Promise<NoticeState> {
  const state = await lockedState(tx, actor);
  const readAllAt = state.readAllAt && state.readAllAt > now ? state.readAllAt : now;
  await tx.update(noticeUserStates).set({ read_all_at: readAllAt, updated_at: now }).where(whose(actor));
  await tx
    .delete(noticeReads)
    .where(
      and(
        eq(noticeReads.tenant_id, actor.tenantId),
        eq(noticeReads.profile_id, actor.profileId),
        lte(noticeReads.notice_at, readAllAt),
      ),
    );
  return { ...state, readAllAt };
}
