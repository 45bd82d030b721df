import { inArray, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { profiles, sessions } from "../../db/schema.js";
import type { Actor, Role } from "../policies/roles.js";

/**
 * Which of these sessions still stand, and as whom (role and ownership may have changed): the
 * same rules as resolveSession — not expired, not idle for more than `idleHours`, account active —
 * but read-only: an open stream is not activity, so it never extends a session.
 */
export async function liveSessions(
  db: Db,
  sessionIds: readonly string[],
  options: { idleHours: number; now?: Date },
): Promise<Map<string, Actor>> {
  const live = new Map<string, Actor>();
  if (sessionIds.length === 0) return live;
  const now = options.now ?? new Date();
  const idleMs = options.idleHours * 60 * 60 * 1000;
  const rows = await db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expires_at,
      lastSeenAt: sessions.last_seen_at,
      profileId: profiles.id,
      tenantId: profiles.tenant_id,
      role: profiles.role,
      isOwner: profiles.is_proprietario,
      isActive: profiles.is_active,
    })
    .from(sessions)
    .innerJoin(profiles, eq(profiles.id, sessions.profile_id))
    .where(inArray(sessions.id, [...sessionIds]));
  for (const row of rows) {
    if (!row.isActive || row.expiresAt <= now || now.getTime() - row.lastSeenAt.getTime() > idleMs) continue;
    live.set(row.sessionId, {
      profileId: row.profileId,
      tenantId: row.tenantId,
      role: row.role as Role,
      isOwner: row.isOwner,
    });
  }
  return live;
}
