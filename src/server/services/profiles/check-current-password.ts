import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { ERRORS } from "../../../shared/errors.js";
import { AppError } from "../../errors.js";
import { verifyPassword } from "../../lib/passwords.js";
import type { SessionUser } from "../auth/sessions.js";
import { claimAttempt, forgetFailures } from "../auth/sign-in-throttle.js";
import { signInLocked } from "../auth/sign-in.js";

/**
 * The password re-typed on /profile (to change the password, the e-mail or the CPF). Guesses
 * share the account's sign-in throttle (decision 011): the attempt is claimed first, a locked
 * account answers 429 SIGN_IN_LOCKED even with the right password, and a right one clears the count.
 */
export async function checkCurrentPassword(
  db: Db,
  actor: SessionUser,
  password: string,
  now = new Date(),
): Promise<void> {
  const claim = await claimAttempt(db, actor.email, now);
  if (claim.locked) {
    const error = signInLocked(claim.lockedUntil, now);
    error.retryAfterSeconds = error.extra.details?.retry_after_seconds as number;
    throw error;
  }
  const [row] = await withTenant(db, actor.tenantId, (tx) =>
    tx
      .select({ hash: profiles.password_hash })
      .from(profiles)
      .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, actor.profileId)))
      .limit(1),
  );
  if (!row) throw new AppError("UNAUTHENTICATED");
  if (!(await verifyPassword(row.hash, password))) {
    throw new AppError("PROFILE_WRONG_PASSWORD", undefined, {
      issues: [{ path: "senha_atual", message: ERRORS.PROFILE_WRONG_PASSWORD.message }],
    });
  }
  await forgetFailures(db, actor.email, now);
}
