import { and, eq, isNull, ne } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { passwordResetTokens, profiles, sessions } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { hashPassword } from "../../lib/passwords.js";
import type { SessionUser } from "../auth/sessions.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { checkCurrentPassword } from "./check-current-password.js";

export interface ChangePasswordOptions {
  db: Db;
  actor: SessionUser;
  input: { senha_atual: string; nova_senha: string };
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * POST /api/profile/password: the signed-in user changes their password. The current
 * one is checked (a wrong one counts toward the account's sign-in throttle, decision 011), the
 * new one follows the shared rule (passwordField). Every other session of the user ends and
 * unused reset links stop working, in the same transaction; this session stays. Audited.
 */
export async function changePassword({
  db,
  actor,
  input,
  audit,
  now = new Date(),
}: ChangePasswordOptions): Promise<{ sessions_ended: number }> {
  await checkCurrentPassword(db, actor, input.senha_atual, now);
  const passwordHash = await hashPassword(input.nova_senha);
  return withTenant(db, actor.tenantId, async (tx) => {
    await tx
      .update(profiles)
      .set({ password_hash: passwordHash, updated_at: now })
      .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, actor.profileId)));
    const ended = await tx
      .delete(sessions)
      .where(
        and(
          eq(sessions.tenant_id, actor.tenantId),
          eq(sessions.profile_id, actor.profileId),
          ne(sessions.id, actor.sessionId),
        ),
      )
      .returning({ id: sessions.id });
    await tx
      .update(passwordResetTokens)
      .set({ used_at: now })
      .where(
        and(
          eq(passwordResetTokens.tenant_id, actor.tenantId),
          eq(passwordResetTokens.profile_id, actor.profileId),
          isNull(passwordResetTokens.used_at),
        ),
      );
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "profile.password_changed",
        entityType: "profile",
        entityId: actor.profileId,
        data: { sessions_ended: ended.length },
      },
    );
    return { sessions_ended: ended.length };
  });
}
