import { eq, lt, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { signInThrottles } from "../../../db/schema.js";
import { rawRows } from "../../../db/raw.js";
import { hashToken } from "../../lib/tokens.js";

/**
 * Per-account sign-in throttling (decision 011). Counted in the database, so every process
 * (and every IP) shares one count per e-mail address:
 *   - failures 1–4: nothing but the usual "E-mail ou senha incorretos.";
 *   - the 5th consecutive failure locks the address for 1 minute, and each later failure
 *     doubles it (2, 4, 8 … minutes, at most 60); during a lock every attempt is refused,
 *     even with the right password, and is not counted;
 *   - a successful sign-in or a completed password reset forgets the count; so do 24 h
 *     without a failure.
 * Unknown addresses go through exactly the same steps, so the answers do not reveal who has an
 * account.
 */
export const LOCK_AFTER_FAILURES = 5;
export const FIRST_LOCK_MINUTES = 1;
export const MAX_LOCK_MINUTES = 60;
export const FAILURE_MEMORY_HOURS = 24;

export const throttleKey = (email: string): string => hashToken(`sign-in:${email.trim().toLowerCase()}`);

export type AttemptClaim =
  { locked: false; failures: number; lockStarted: boolean } | { locked: true; lockedUntil: Date };

/**
 * Claims one attempt before the password is checked: counts it as a failure in one atomic
 * statement (so parallel guesses cannot slip past the threshold) unless the address is locked.
 * A right password then calls `forgetFailures`. `lockStarted` is true for the very failure that
 * started the lock (the 5th), once per series.
 */
export async function claimAttempt(db: Db, email: string, now = new Date()): Promise<AttemptClaim> {
  const key = throttleKey(email);
  const at = sql`${now.toISOString()}::timestamptz`;
  const forgetBefore = sql`${new Date(now.getTime() - FAILURE_MEMORY_HOURS * 3_600_000).toISOString()}::timestamptz`;
  const t = signInThrottles;
  const counted = sql`(case when ${t.last_failure_at} < ${forgetBefore} then 1 else ${t.failures} + 1 end)`;
  const rows = await rawRows<{ failures: number }>(
    db,
    sql`insert into ${t} (email_hash, failures, last_failure_at, locked_until)
        values (${key}, 1, ${at}, ${lockedUntilSql(sql`1`, at)})
        on conflict (email_hash) do update set
          failures = ${counted},
          last_failure_at = ${at},
          locked_until = ${lockedUntilSql(counted, at)}
        where ${t.locked_until} is null or ${t.locked_until} <= ${at}
        returning failures`,
  );
  const row = rows[0];
  if (row) {
    const failures = Number(row.failures);
    return { locked: false, failures, lockStarted: failures === LOCK_AFTER_FAILURES };
  }
  const [current] = await db.select({ lockedUntil: t.locked_until }).from(t).where(eq(t.email_hash, key)).limit(1);
  // The lock may have ended between the two statements: refuse this one attempt all the same.
  return { locked: true, lockedUntil: current?.lockedUntil ?? now };
}

/**
 * Until when the n-th consecutive failure locks the address, as SQL: null below the threshold,
 * then FIRST_LOCK_MINUTES × 2^(n − 5), at most MAX_LOCK_MINUTES.
 */
function lockedUntilSql(failures: SQL, at: SQL): SQL {
  return sql`(case when ${failures} >= ${LOCK_AFTER_FAILURES}
      then ${at} + make_interval(mins => least(
        ${FIRST_LOCK_MINUTES} * power(2, least(${failures} - ${LOCK_AFTER_FAILURES}, 16)), ${MAX_LOCK_MINUTES})::int)
      else null end)`;
}

/**
 * A right password: the address starts afresh. Also sweeps series nobody has touched for
 * FAILURE_MEMORY_HOURS (their locks ended long ago), so the table stays small.
 */
export async function forgetFailures(db: Db, email: string, now = new Date()): Promise<void> {
  const forgetBefore = new Date(now.getTime() - FAILURE_MEMORY_HOURS * 60 * 60 * 1000);
  await db
    .delete(signInThrottles)
    .where(or(eq(signInThrottles.email_hash, throttleKey(email)), lt(signInThrottles.last_failure_at, forgetBefore)));
}
