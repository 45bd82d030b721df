import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { AppError } from "../errors.js";
import { jobs } from "../../db/schema.js";
import type { JobContext } from "./job-context.js";
import type { JobKind, JobPayloads } from "./enqueue-job.js";

export type JobHandler<K extends JobKind = JobKind> = (
  ctx: JobContext,
  payload: JobPayloads[K],
  tenantId: string | null,
  /** The queue's clock (runDueJobs' `now`): tests move it, handlers that schedule use it (decision 059). */
  now: Date,
  /** This run's attempt (1-based) and the job's limit: a handler may act on its last failure (decision 066). */
  attempt?: { number: number; max: number },
) => Promise<void>;
export type JobHandlers = { [K in JobKind]?: JobHandler<K> };

/**
 * How long a taken job stays reserved before another worker may take it again. The worker running
 * it renews the lease every HEARTBEAT_MS, so a long job keeps it while a job whose process died
 * (kill -9, crash) is taken again within LEASE_MS plus one idle round (the sealed PDF
 * arrives within 30 s of a crash).
 */
export const LEASE_MS = 20_000;
export const HEARTBEAT_MS = 5_000;

export interface LeaseOptions {
  leaseMs?: number;
  heartbeatMs?: number;
  /** Jobs run at once (default 1). */
  concurrency?: number;
}

/** Seconds before retry n (1, 2, …): 10 s, 40 s, 160 s … capped at one hour. */
export function retryDelayMs(attempt: number): number {
  return Math.min(60 * 60_000, 10_000 * 4 ** Math.max(0, attempt - 1));
}

type JobRow = typeof jobs.$inferSelect;

/**
 * Takes one due job (FOR UPDATE SKIP LOCKED: many workers never take the same one), in one
 * statement: the UPDATE takes the row its subquery locked, so no transaction round trips around it
 * (decision 073: it was BEGIN, SELECT … FOR UPDATE, UPDATE, COMMIT).
 */
async function claim(db: Db, now: Date, leaseMs: number): Promise<JobRow | undefined> {
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.status, "pending"), lte(jobs.run_at, now)))
    .orderBy(jobs.run_at)
    .limit(1)
    .for("update", { skipLocked: true });
  const [taken] = await db
    .update(jobs)
    .set({
      status: "running",
      attempts: sql`${jobs.attempts} + 1`,
      locked_until: new Date(now.getTime() + leaseMs),
    })
    .where(and(inArray(jobs.id, due), eq(jobs.status, "pending")))
    .returning();
  return taken;
}

/** Jobs whose worker died mid-run go back to the queue once their lease ends. */
async function releaseExpiredLeases(db: Db, now: Date): Promise<void> {
  await db
    .update(jobs)
    .set({ status: "pending", locked_until: null })
    .where(and(eq(jobs.status, "running"), lte(jobs.locked_until, now)));
}

export interface RunDueJobsOptions {
  ctx: JobContext;
  handlers: JobHandlers;
  limit?: number;
  now?: () => Date;
  lease?: LeaseOptions;
}

/**
 * Runs due jobs until none is left or `limit` ran; a failure is recorded and retried later with
 * back-off, and after max_attempts the job stays 'failed' with its last error (never deleted).
 * `lease.concurrency` lanes run at once (JOB_CONCURRENCY in the worker): each takes its own job
 * with SKIP LOCKED, so a slow outside call (Feegow, SMTP) no longer holds up the jobs behind it.
 */
export async function runDueJobs({
  ctx,
  handlers,
  limit = 20,
  now = () => new Date(),
  lease = {},
}: RunDueJobsOptions): Promise<number> {
  const leaseMs = lease.leaseMs ?? LEASE_MS;
  await releaseExpiredLeases(ctx.db, now());
  let ran = 0;
  const lane = async () => {
    while (ran < limit) {
      const job = await claim(ctx.db, now(), leaseMs);
      if (!job) return;
      ran += 1;
      await runOne({ ctx, handlers, job, now, leaseMs, heartbeatMs: lease.heartbeatMs ?? HEARTBEAT_MS });
    }
  };
  const lanes = Math.max(1, Math.min(lease.concurrency ?? 1, limit));
  await Promise.all(Array.from({ length: lanes }, lane));
  return ran;
}

interface RunOneOptions {
  ctx: JobContext;
  handlers: JobHandlers;
  job: JobRow;
  now: () => Date;
  leaseMs: number;
  heartbeatMs: number;
}

/** Runs one claimed job under its lease and records the outcome. */
async function runOne({ ctx, handlers, job, now, leaseMs, heartbeatMs }: RunOneOptions): Promise<void> {
  const handler = handlers[job.kind as JobKind] as JobHandler | undefined;
  const heartbeat = keepLease({ ctx, jobId: job.id, leaseMs, heartbeatMs, now });
  try {
    if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
    await handler(ctx, job.payload as never, job.tenant_id, now(), { number: job.attempts, max: job.max_attempts });
    await heartbeat.stop();
    await ctx.db
      .update(jobs)
      .set({ status: "done", finished_at: now(), locked_until: null, last_error: null })
      .where(eq(jobs.id, job.id));
  } catch (error) {
    await heartbeat.stop();
    if (error instanceof AppError && error.code === "SERVER_BUSY") {
      // The PDF pool stayed full (decision 012): not the job's fault. Back to the queue after
      // the pool's estimate, without spending an attempt.
      ctx.log.warn({ jobId: job.id, kind: job.kind }, "job postponed: PDF pool busy");
      await ctx.db
        .update(jobs)
        .set({
          status: "pending",
          attempts: job.attempts - 1,
          run_at: new Date(now().getTime() + (error.retryAfterSeconds ?? 5) * 1000),
          locked_until: null,
        })
        .where(eq(jobs.id, job.id));
      return;
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const exhausted = job.attempts >= job.max_attempts;
    ctx.log.error(
      { err: error, jobId: job.id, kind: job.kind, attempt: job.attempts },
      exhausted ? "job failed for good" : "job failed; will retry",
    );
    await ctx.db
      .update(jobs)
      .set({
        status: exhausted ? "failed" : "pending",
        run_at: exhausted ? job.run_at : new Date(now().getTime() + retryDelayMs(job.attempts)),
        locked_until: null,
        last_error: message.slice(0, 2000),
        finished_at: exhausted ? now() : null,
      })
      .where(eq(jobs.id, job.id));
  }
}

interface KeepLeaseOptions {
  ctx: JobContext;
  jobId: string;
  leaseMs: number;
  heartbeatMs: number;
  now: () => Date;
}

/** Renews a running job's lease every `heartbeatMs` until stopped (one renewal in flight at a time). */
function keepLease({ ctx, jobId, leaseMs, heartbeatMs, now }: KeepLeaseOptions): { stop(): Promise<void> } {
  let inFlight: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    inFlight = inFlight
      .then(() =>
        ctx.db
          .update(jobs)
          .set({ locked_until: new Date(now().getTime() + leaseMs) })
          .where(and(eq(jobs.id, jobId), eq(jobs.status, "running"))),
      )
      .catch((error: unknown) => ctx.log.warn({ err: error, jobId }, "job lease renewal failed"));
  }, heartbeatMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}

/** Pending or running jobs (for tests and the health of the queue). */
export async function countOpenJobs(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(sql`${jobs.status} in ('pending', 'running')`);
  return row?.n ?? 0;
}
