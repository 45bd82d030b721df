import { asBulkDatabaseWork } from "../../db/database-priority.js";
import type { Database } from "../../db/client.js";
import type { NotificationSubscription } from "../../db/listen.js";
import nodemailer, { type Transporter } from "nodemailer";
import { deliverDueEmails } from "../services/email/deliver-emails.js";
import { sealPlainOutboxBodies } from "../services/email/seal-plain-outbox-bodies.js";
import { AUDIT_ANCHOR_KEY_PURPOSE, anchorAuditChains } from "../services/audit/audit-anchors.js";
import { scheduleArchiveRetimestamp } from "../services/archive/retimestamp-archive.js";
import { scheduleTrailTimestamps } from "../services/audit/trail-timestamps.js";
import { scheduleDailyBackup } from "./daily-backup.js";
import { expireDocuments } from "./expire-documents.js";
import { warnCertificateExpiry } from "./warn-certificate-expiry.js";
import type { JobContext } from "./job-context.js";
import { type JobHandlers, LEASE_MS, runDueJobs } from "./run-due-jobs.js";
import { nextDueAt } from "./next-due.js";

/** The channel new background work is announced on (migration 0039, decision 055). */
export const WORK_CHANNEL = "consentir_work";
/** The shortest pause after a round that found nothing to take. */
const QUIET_FLOOR_MS = 1000;

export interface WorkerOptions {
  /**
   * Longest pause between rounds when nothing is due and no wake-up came (decision 055): rounds
   * run when consentir_work announces new work and when the next job or e-mail falls due; this
   * poll only catches a notification lost with a dropped connection.
   */
  idleMs?: number;
  /** How often the expiry sweep runs. */
  sweepEveryMs?: number;
}

export interface Worker {
  /** Starts the loop (no-op when already started). */
  start(): void;
  /** One round: due jobs, due e-mails, and the sweep when it is time. Used by tests too. */
  tick(options?: {
    sweep?: boolean;
  }): Promise<{ jobs: number; emails: number; expired: number; anchored: number; certificateWarnings: number }>;
  stop(): Promise<void>;
  /** Resolves once the round under way (if any) is over and the wake-up LISTEN is open or has failed. */
  settled(): Promise<void>;
}

/** SMTP transport from SMTP_URL, or null: then e-mail stays in the outbox (dev viewer). */
export function smtpTransport(url: string | undefined): Transporter | null {
  return url ? nodemailer.createTransport(url) : null;
}

/**
 * The in-process background worker (decision 007): a loop that never overlaps itself. The sweep
 * (every minute) expires documents, anchors the audit chains that moved and sends certificate
 * expiry warnings. Any
 * number of processes may run one: jobs and e-mails are taken with SKIP LOCKED.
 */
export function createWorker(
  ctx: JobContext,
  handlers: JobHandlers,
  transport: Transporter | null,
  options: WorkerOptions = {},
): Worker {
  const idleMs = options.idleMs ?? 30_000;
  const sweepEveryMs = options.sweepEveryMs ?? 60_000;
  let lastSweep = 0;
  const anchorKey = ctx.secretBox.deriveKey(AUDIT_ANCHOR_KEY_PURPOSE);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let running: Promise<unknown> = Promise.resolve();
  let inRound = false;
  let wokenDuringRound = false;
  let subscription: NotificationSubscription | undefined;
  let listening: Promise<unknown> = Promise.resolve();

  // Jobs, e-mails and sweeps are bulk database work: on PGlite they let requests go first (decision 038).
  const tick = (tickOptions: { sweep?: boolean } = {}) => asBulkDatabaseWork(() => runRound(tickOptions));
  const runRound = async (tickOptions: { sweep?: boolean }) => {
    const leaseMs = ctx.env.JOB_LEASE_MS ?? LEASE_MS;
    const jobs = await runDueJobs({
      ctx,
      handlers,
      limit: 20,
      lease: {
        leaseMs,
        heartbeatMs: Math.max(250, Math.floor(leaseMs / 4)),
        concurrency: ctx.env.JOB_CONCURRENCY,
      },
    });
    const emails = transport
      ? await deliverDueEmails({
          db: ctx.db,
          transport,
          from: ctx.env.SMTP_FROM,
          storage: ctx.storage,
          box: ctx.secretBox,
        })
      : 0;
    let expired = 0;
    let anchored = 0;
    let certificateWarnings = 0;
    if (tickOptions.sweep ?? Date.now() - lastSweep >= sweepEveryMs) {
      lastSweep = Date.now();
      expired = await expireDocuments(ctx.db);
      // Each minute, the audit chains that moved get a signed anchor.
      anchored = await anchorAuditChains(ctx.db, anchorKey);
      // Certificates expiring in 30, 7 or 1 days: one e-mail per threshold (decision 019).
      certificateWarnings = await warnCertificateExpiry(ctx.db, ctx.secretBox, ctx.origin);
      // Messages queued before migration 0038 get their text sealed, up to 2,000 a minute.
      for (let batch = 0; batch < 10 && (await sealPlainOutboxBodies(ctx.db, ctx.secretBox)) > 0; batch += 1);
      // The day's backup once BACKUP_TIME has passed, when BACKUP_DIR or BACKUP_S3 is set (decisions 027, 030).
      await scheduleDailyBackup(ctx);
      // Once a day, the archive's sealed PDFs whose time-stamp nears its authority's expiry (decision 064).
      await scheduleArchiveRetimestamp(ctx);
      // The clinics' chain heads that moved get a time-stamp token, at most hourly (decision 072).
      await scheduleTrailTimestamps(ctx);
    }
    return { jobs, emails, expired, anchored, certificateWarnings };
  };

  /** How long to sleep after a quiet round: until the next due job or e-mail, the next sweep, or the safety poll. */
  const quietPause = async (): Promise<number> => {
    const untilSweep = Math.max(0, lastSweep + sweepEveryMs - Date.now());
    const due = await nextDueAt(ctx.db, { emails: transport !== null });
    // A due row this round took nothing of is held by another worker (FOR UPDATE, SKIP LOCKED):
    // look again in a second, not at once, or two workers would spin for the whole SMTP call.
    const untilDue = due ? Math.max(QUIET_FLOOR_MS, due.getTime() - Date.now()) : Number.POSITIVE_INFINITY;
    return Math.min(idleMs, untilSweep, untilDue);
  };

  const loop = () => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    inRound = true;
    wokenDuringRound = false;
    running = tick()
      .then((done) => (done.jobs > 0 || done.emails > 0 || wokenDuringRound ? 0 : quietPause()))
      .catch((error: unknown) => {
        ctx.log.error({ err: error }, "worker round failed");
        return idleMs;
      })
      .then((delay) => {
        inRound = false;
        if (!stopped) timer = setTimeout(loop, wokenDuringRound ? 0 : delay);
      });
  };

  const subscribe = (database: Database) =>
    database
      .listen(WORK_CHANNEL, {
        onNotification: () => wake(),
        // Notifications sent while the connection was down are lost: look once more.
        onReconnect: () => wake(),
        onError: (error) => ctx.log.warn({ err: error }, "worker wake-up connection failed; it is retried"),
      })
      .then(
        (opened) => {
          if (stopped) return opened.close();
          subscription = opened;
        },
        (error: unknown) => ctx.log.error({ err: error }, "worker could not LISTEN; it polls instead"),
      );

  /** New work was announced: run a round now, or right after the one under way. */
  const wake = () => {
    if (stopped || !started) return;
    if (inRound) wokenDuringRound = true;
    else loop();
  };

  return {
    start() {
      if (started || stopped) return;
      started = true;
      loop();
      // Without a database to LISTEN on (a bare context in tests), rounds follow due times and the poll.
      const database = ctx.database;
      if (database) listening = subscribe(database);
    },
    tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await listening;
      await subscription?.close();
      await running;
      transport?.close();
    },
    async settled() {
      await listening;
      await running;
    },
  };
}
