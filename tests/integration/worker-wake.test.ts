import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { jobHandlers } from "../../src/server/jobs/handlers.js";
import { createWorker, smtpTransport, type Worker } from "../../src/server/jobs/worker.js";
import { enqueueEmail } from "../../src/server/services/email/enqueue-email.js";
import { startSmtp } from "../fakes/smtp-server.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * The worker sleeps until told (decision 055): a queued e-mail or job announces itself on
 * consentir_work and the worker runs a round at once, though its safety poll is ten minutes here;
 * a notification lost with the connection is made up when it comes back; without any wake-up the
 * poll still finds the work.
 */
let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let clinic: SignedIn;
const workers: Worker[] = [];

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestApp({ env: { SMTP_URL: smtp.url, SMTP_FROM: "Consentir <nao-responda@consentir.test>" } });
  clinic = await newClinic(ctx.app);
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

/** A worker of its own, with the given safety poll; `listen: false` leaves it only the poll. */
async function startWorker(idleMs: number, listen = true): Promise<Worker> {
  // Work left by other files on a shared PostgreSQL database is closed first: nothing else is due.
  await ctx.database.db.execute(sql`update jobs set status = 'done' where status in ('pending', 'running')`);
  await ctx.database.db.execute(sql`update email_outbox set status = 'sent' where status = 'pending'`);
  const { storage, secretBox } = ctx.app.services;
  const worker = createWorker(
    {
      db: ctx.database.db,
      storage,
      secretBox,
      env: ctx.env,
      origin: "http://localhost",
      log: { info() {}, warn() {}, error() {} },
      ...(listen ? { database: ctx.database } : {}),
    },
    jobHandlers,
    smtpTransport(smtp.url),
    { idleMs, sweepEveryMs: 3_600_000 },
  );
  workers.push(worker);
  worker.start();
  await worker.settled();
  return worker;
}

async function queueMail(to: string): Promise<void> {
  await enqueueEmail(ctx.database.db, ctx.app.services.secretBox, {
    tenantId: clinic.tenantId,
    to,
    subject: "Teste do despertar",
    text: "Olá",
  });
}

const delivered = (to: string) => smtp.received.some((mail) => mail.to.includes(to));

describe("the worker wakes for new work", () => {
  it("delivers a queued e-mail at once, with the safety poll ten minutes away", async () => {
    await startWorker(600_000);
    const to = `despertar.${Date.now()}@exemplo.com.br`;
    await queueMail(to);
    await vi.waitFor(() => expect(delivered(to)).toBe(true), { timeout: 60_000, interval: 50 });
  });

  it("without a wake-up (no LISTEN), finds the e-mail at the next safety poll", async () => {
    await startWorker(500, false);
    const to = `sem-aviso.${Date.now()}@exemplo.com.br`;
    await queueMail(to);
    await vi.waitFor(() => expect(delivered(to)).toBe(true), { timeout: 60_000, interval: 50 });
  });

  if (process.env.TEST_DB === "postgres") {
    it("makes up for a notification lost with the connection when it comes back", async () => {
      await startWorker(600_000);
      // Drop every LISTEN connection of this database, then queue while the worker's is down.
      await ctx.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where application_name = 'consentir-listen' and datname = current_database()`,
      );
      const to = `reconexao.${Date.now()}@exemplo.com.br`;
      await queueMail(to);
      await vi.waitFor(() => expect(delivered(to)).toBe(true), { timeout: 60_000, interval: 50 });
    });
  }
});
