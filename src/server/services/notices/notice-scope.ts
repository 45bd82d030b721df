import { noticeAudience } from "../../../shared/notices/notice-audience.js";
import { signedNoticesSince } from "../../../shared/notices/notice-kinds.js";
import type { Actor } from "../../policies/roles.js";
import type { NoticeScope } from "./notice-sources.js";
import type { NoticeState } from "./notice-state.js";

/** The notices `actor` may see at `now`, given their visits (decision 028). */
export function noticeScopeOf(actor: Actor, state: NoticeState, now: Date, only?: readonly string[]): NoticeScope {
  return {
    tenantId: actor.tenantId,
    profileId: actor.profileId,
    audience: noticeAudience(actor),
    now,
    signedSince: signedNoticesSince(state, now),
    ...(only ? { only } : {}),
  };
}
