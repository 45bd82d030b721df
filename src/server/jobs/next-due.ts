import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { rawRows } from "../../db/raw.js";

/**
 * When the worker next has something to do without being told (decision 055): the earliest
 * pending job, the earliest lease of a running job (its process may have died) and, when e-mail
 * can leave, the earliest pending e-mail. Three index reads (jobs_due_idx, jobs_lease_idx,
 * email_outbox_due_idx); null when nothing waits.
 */
export async function nextDueAt(db: Db, options: { emails: boolean }): Promise<Date | null> {
  const [row] = await rawRows<{ next: string | Date | null }>(
    db,
    sql`select least(
          (select min(run_at) from jobs where status = 'pending'),
          (select min(locked_until) from jobs where status = 'running'),
          ${options.emails ? sql`(select min(next_attempt_at) from email_outbox where status = 'pending')` : sql`null::timestamptz`}
        ) as next`,
  );
  return row?.next ? new Date(row.next) : null;
}
