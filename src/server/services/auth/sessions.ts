import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles, sessions } from "../../../db/schema.js";
import { hashToken, newToken } from "../../lib/tokens.js";
import type { Actor, Role } from "../../policies/roles.js";

export interface SessionUser extends Actor {
  sessionId: string;
  email: string;
  nome: string;
  /** Front-desk signing: the document this device was handed over for, while locked. */
  lockedContratoId: string | null;
  locked: boolean;
}

/**
 * last_seen_at is written at most this often (not on every request), so the idle timeout is
 * exact to within these 5 minutes.
 */
export const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

export async function createSession(
  db: Db,
  input: { tenantId: string; profileId: string; ip?: string; userAgent?: string; days: number; now?: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + input.days * 24 * 60 * 60 * 1000);
  await db.insert(sessions).values({
    tenant_id: input.tenantId,
    profile_id: input.profileId,
    token_hash: hashToken(token),
    ip_address: input.ip,
    user_agent: input.userAgent?.slice(0, 500),
    expires_at: expiresAt,
  });
  return { token, expiresAt };
}

/**
 * The signed-in user behind a session cookie, or null: unknown, past its absolute lifetime
 * (SESSION_DAYS), idle for more than `idleHours` (SESSION_IDLE_HOURS; the session is then
 * deleted), or of a deactivated account.
 */
export async function resolveSession(
  db: Db,
  token: string,
  options: { idleHours: number; now?: Date },
): Promise<SessionUser | null> {
  const now = options.now ?? new Date();
  const [row] = await db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.last_seen_at,
      profileId: profiles.id,
      tenantId: profiles.tenant_id,
      role: profiles.role,
      isOwner: profiles.is_proprietario,
      isActive: profiles.is_active,
      email: profiles.email,
      nome: profiles.nome,
      lockedAt: sessions.locked_at,
      lockedContratoId: sessions.locked_contrato_id,
    })
    .from(sessions)
    .innerJoin(profiles, eq(profiles.id, sessions.profile_id))
    .where(and(eq(sessions.token_hash, hashToken(token)), gt(sessions.expires_at, now)))
    .limit(1);
  if (!row || !row.isActive) return null;
  const idleMs = now.getTime() - row.lastSeenAt.getTime();
  if (idleMs > options.idleHours * 60 * 60 * 1000) {
    await db.delete(sessions).where(eq(sessions.id, row.sessionId));
    return null;
  }
  if (idleMs > TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ last_seen_at: now }).where(eq(sessions.id, row.sessionId));
  }
  return {
    sessionId: row.sessionId,
    profileId: row.profileId,
    tenantId: row.tenantId,
    role: row.role as Role,
    isOwner: row.isOwner,
    email: row.email,
    nome: row.nome,
    locked: row.lockedAt !== null,
    lockedContratoId: row.lockedAt !== null ? row.lockedContratoId : null,
  };
}

/** The staff member typed their password again: the device is theirs. */
export async function unlockSession(db: Db, sessionId: string): Promise<void> {
  await db.update(sessions).set({ locked_at: null, locked_contrato_id: null }).where(eq(sessions.id, sessionId));
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.token_hash, hashToken(token)));
}

export async function deleteSessionsOfProfile(db: Db, profileId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.profile_id, profileId));
}

export async function deleteExpiredSessions(db: Db, now = new Date()): Promise<void> {
  await db.delete(sessions).where(sql`${sessions.expires_at} <= ${now}`);
}
