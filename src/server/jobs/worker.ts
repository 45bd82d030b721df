import { asBulkDatabaseWork } from "../../db/database-priority.js";
import nodemailer, { type Transporter } from "nodemailer";
import { deliverDueEmails } from "../services/email/deliver-emails.js";
import { sealPlainOutboxBodies } from "../services/email/seal-plain-outbox-bodies.js";
import { AUDIT_ANCHOR_KEY_PURPOSE, anchorAuditChains } from "../services/audit/audit-anchors.js";
import { scheduleDailyBackup } from "./daily-backup.js";
import { expireDocuments } from "./expire-documents.js";
import { warnCertificateExpiry } from "./warn-certificate-expiry.js";
import type { JobContext } from "./job-context.js";
import { type JobHandlers, LEASE_MS, runDueJobs } from "./run-due-jobs.js";

export interface WorkerOptions {
  /** Pause between rounds when there was nothing to do. */
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
  const idleMs = options.idleMs ?? 1000;
  const sweepEveryMs = options.sweepEveryMs ?? 60_000;
  let lastSweep = 0;
  const anchorKey = ctx.secretBox.deriveKey(AUDIT_ANCHOR_KEY_PURPOSE);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let running: Promise<unknown> = Promise.resolve();

  // Jobs, e-mails and sweeps are bulk database work: on PGlite they let requests go first (decision 038).
  const tick = (tickOptions: { sweep?: boolean } = {}) => asBulkDatabaseWork(() => runRound(tickOptions));
  const runRound = async (tickOptions: { sweep?: boolean }) => {
    const leaseMs = ctx.env.JOB_LEASE_MS ?? LEASE_MS;
    const jobs = await runDueJobs(ctx, handlers, 20, undefined, {
      leaseMs,
      heartbeatMs: Math.max(250, Math.floor(leaseMs / 4)),
      concurrency: ctx.env.JOB_CONCURRENCY,
    });
    const emails = transport
      ? await deliverDueEmails(ctx.db, transport, ctx.env.SMTP_FROM, ctx.storage, ctx.secretBox)
      : 0;
    let expired = 0;
    let anchored = 0;
    let certificateWarnings = 0;
    if (tickOptions.sweep ?? Date.now() - lastSweep >= sweepEveryMs) {
      lastSweep = Date.now();
      expired = await expireDocuments(ctx.db);
      // Each minute, the audit chains that moved get a signed anchor (issue 15).
      anchored = await anchorAuditChains(ctx.db, anchorKey);
      // Certificates expiring in 30, 7 or 1 days: one e-mail per threshold (decision 019).
      certificateWarnings = await warnCertificateExpiry(ctx.db, ctx.secretBox, ctx.origin);
      // Messages queued before migration 0038 get their text sealed, up to 2,000 a minute.
      for (let batch = 0; batch < 10 && (await sealPlainOutboxBodies(ctx.db, ctx.secretBox)) > 0; batch += 1);
      // The day's backup once BACKUP_TIME has passed, when BACKUP_DIR or BACKUP_S3 is set (decisions 027, 030).
      await scheduleDailyBackup(ctx);
    }
    return { jobs, emails, expired, anchored, certificateWarnings };
  };

  const loop = () => {
    if (stopped) return;
    running = tick()
      .then((done) => (done.jobs > 0 || done.emails > 0 ? 0 : idleMs))
      .catch((error: unknown) => {
        ctx.log.error({ err: error }, "worker round failed");
        return idleMs * 5;
      })
      .then((delay) => {
        if (!stopped) timer = setTimeout(loop, delay);
      });
  };
  return {
    start() {
      if (started || stopped) return;
      started = true;
      timer = setTimeout(loop, 0);
    },
    tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      transport?.close();
    },
  };
}
