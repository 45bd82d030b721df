import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { contratos, emailOutbox, files, jobs } from "../../src/db/schema.js";
import { withTenant } from "../../src/db/tenant-scope.js";
import { enqueueJob } from "../../src/server/jobs/enqueue-job.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { LEASE_MS, runDueJobs } from "../../src/server/jobs/run-due-jobs.js";
import { AUDIT_ANCHOR_KEY_PURPOSE, anchorAuditChains } from "../../src/server/services/audit/audit-anchors.js";
import { verifyAllAuditChains, verifyAuditChain } from "../../src/server/services/audit/verify-audit-chain.js";
import { createSecretBox } from "../../src/server/lib/secret-box.js";
import { recordAuditEvent } from "../../src/server/services/audit/record-audit-event.js";
import { enqueueEmail } from "../../src/server/services/email/enqueue-email.js";
import { startSmtp } from "../fakes/smtp-server.js";
import { insertDocument, insertPatient } from "../helpers/documents.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let clinic: SignedIn;

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestApp({ env: { SMTP_URL: smtp.url, SMTP_FROM: "Consentir <nao-responda@consentir.test>" } });
  // On PostgreSQL every test file shares one database: work left by other files (their e-mails
  // and jobs) is closed first, so these counts are this file's own.
  await ctx.database.db.execute(sql`update jobs set status = 'done' where status in ('pending', 'running')`);
  await ctx.database.db.execute(sql`update email_outbox set status = 'sent' where status = 'pending'`);
  clinic = await newClinic(ctx.app);
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

/** What someone with full database access can do: change events behind the append-only trigger. */
async function tamper(statement: ReturnType<typeof sql>): Promise<void> {
  await ctx.database.db.execute(sql`alter table audit_events disable trigger audit_events_append_only`);
  try {
    await ctx.database.db.execute(statement);
  } finally {
    await ctx.database.db.execute(sql`alter table audit_events enable trigger audit_events_append_only`);
  }
}

const anchorKey = () => ctx.app.services.secretBox.deriveKey(AUDIT_ANCHOR_KEY_PURPOSE);

const jobContext = (): JobContext => ({
  db: ctx.database.db,
  storage: ctx.app.services.storage,
  secretBox: ctx.app.services.secretBox,
  env: ctx.env,
  origin: "http://localhost",
  log: { info() {}, warn() {}, error() {} },
});

async function publishedVersionId(): Promise<string> {
  const created = await ctx.app.inject({
    method: "POST",
    url: "/api/templates",
    headers: { cookie: clinic.cookie },
    payload: {
      titulo: "TCLE",
      especialidade: (
        await ctx.app.inject({ method: "GET", url: "/api/templates/specialties", headers: { cookie: clinic.cookie } })
      ).json().items[0],
      categoria: "Consentimento",
      estrutura: { title: "TCLE", introduction: "Texto", sections: [] },
    },
  });
  return created.json().versao_atual_id as string;
}

describe("e-mail delivery over SMTP", () => {
  it("sends the outbox through a real SMTP round trip, with attachments, and marks it sent", async () => {
    const stored = await ctx.app.services.storage.put(Buffer.from("%PDF-1.7 anexo de teste"));
    const [file] = await ctx.database.db
      .insert(files)
      .values({
        tenant_id: clinic.tenantId,
        sha256: stored.sha256,
        size: stored.size,
        content_type: "application/pdf",
        nome: "termo.pdf",
      })
      .returning();
    const id = await enqueueEmail(ctx.database.db, ctx.app.services.secretBox, {
      tenantId: clinic.tenantId,
      to: "paciente@exemplo.com.br",
      subject: "Seu termo assinado — Clínica Bem Viver",
      text: "Olá! Segue em anexo o termo assinado.",
      attachments: [{ fileId: file!.id, filename: "termo.pdf", contentType: "application/pdf" }],
    });
    const round = await ctx.app.worker.tick({ sweep: false });
    expect(round.emails).toBe(1);
    const message = smtp.received.at(-1)!;
    expect(message.to).toEqual(["paciente@exemplo.com.br"]);
    expect(message.from).toBe("nao-responda@consentir.test");
    expect(message.raw).toContain("termo.pdf");
    expect(message.raw).toContain(Buffer.from("%PDF-1.7 anexo de teste").toString("base64"));
    const [row] = await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row).toMatchObject({ status: "sent" });
    expect(row!.sent_at).toBeInstanceOf(Date);
  });

  it("keeps a message the server refuses, records the error and retries later", async () => {
    smtp.state.reject = true;
    const id = await enqueueEmail(ctx.database.db, ctx.app.services.secretBox, {
      tenantId: clinic.tenantId,
      to: "x@exemplo.com.br",
      subject: "Teste",
      text: "Teste",
    });
    await ctx.app.worker.tick({ sweep: false });
    smtp.state.reject = false;
    const [row] = await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row!.status).toBe("pending");
    expect(row!.attempts).toHaveLength(1);
    expect(row!.attempts[0]!.error).toMatch(/550|caixa/);
    expect(row!.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
    // Not due yet: the next round leaves it alone.
    expect((await ctx.app.worker.tick({ sweep: false })).emails).toBe(0);
  });
});

describe("jobs", () => {
  it("runs a due job once, retries a failing one with back-off, and gives up after max attempts", async () => {
    await enqueueJob(ctx.database.db, { kind: "documents.expire", payload: {}, dedupeKey: "teste-dedupe" });
    await enqueueJob(ctx.database.db, { kind: "documents.expire", payload: {}, dedupeKey: "teste-dedupe" });
    const pending = await ctx.database.db.select().from(jobs).where(eq(jobs.dedupe_key, "teste-dedupe"));
    expect(pending).toHaveLength(1);

    let calls = 0;
    const handlers = {
      "documents.expire": async () => {
        calls += 1;
        throw new Error("falha proposital");
      },
    };
    await ctx.database.db.update(jobs).set({ max_attempts: 2 }).where(eq(jobs.dedupe_key, "teste-dedupe"));
    expect(await runDueJobs({ ctx: jobContext(), handlers })).toBe(1);
    let [job] = await ctx.database.db.select().from(jobs).where(eq(jobs.dedupe_key, "teste-dedupe"));
    expect(job).toMatchObject({ status: "pending", attempts: 1, last_error: "Error: falha proposital" });
    expect(job!.run_at.getTime()).toBeGreaterThan(Date.now());
    // Not due: nothing runs. Then the clock passes the retry time.
    expect(await runDueJobs({ ctx: jobContext(), handlers })).toBe(0);
    const later = () => new Date(Date.now() + 60 * 60_000);
    expect(await runDueJobs({ ctx: jobContext(), handlers, limit: 20, now: later })).toBe(1);
    [job] = await ctx.database.db.select().from(jobs).where(eq(jobs.dedupe_key, "teste-dedupe"));
    expect(job).toMatchObject({ status: "failed", attempts: 2 });
    expect(calls).toBe(2);

    // A job whose handler succeeds ends done.
    await enqueueJob(ctx.database.db, { kind: "documents.expire", payload: {}, dedupeKey: "teste-ok" });
    expect(await runDueJobs({ ctx: jobContext(), handlers: { "documents.expire": async () => {} } })).toBe(1);
    const [ok] = await ctx.database.db.select().from(jobs).where(eq(jobs.dedupe_key, "teste-ok"));
    expect(ok).toMatchObject({ status: "done" });
  });

  it("two workers running at once never run the same job twice", async () => {
    const runs: string[] = [];
    for (let i = 0; i < 6; i += 1)
      await enqueueJob(ctx.database.db, { kind: "documents.expire", payload: {}, dedupeKey: `paralelo-${i}` });
    const handlers = {
      "documents.expire": async (_ctx: JobContext, _payload: unknown) => {
        runs.push("x");
      },
    };
    const [a, b] = await Promise.all([
      runDueJobs({ ctx: jobContext(), handlers }),
      runDueJobs({ ctx: jobContext(), handlers }),
    ]);
    expect((a ?? 0) + (b ?? 0)).toBe(runs.length);
    const open = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from jobs where dedupe_key like 'paralelo-%' and status <> 'done'`,
    );
    expect(open[0]!.n).toBe(0);
    expect(runs).toHaveLength(6);
  });

  it("with concurrency 3, three jobs run at once (none twice); the rest follow as lanes free up", async () => {
    const keys = Array.from({ length: 7 }, (_, i) => `lanes-${i}`);
    for (const key of keys)
      await enqueueJob(ctx.database.db, { kind: "documents.expire", payload: { key } as never, dedupeKey: key });
    let inFlight = 0;
    let peak = 0;
    const seen: string[] = [];
    // The first jobs wait until three run at once (a condition, not a time): with one lane the
    // gate never opens and the bound below lets the test fail instead of hanging.
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const handlers = {
      "documents.expire": async (_ctx: JobContext, payload: unknown) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        seen.push((payload as { key: string }).key);
        if (inFlight === 3) openGate();
        await Promise.race([gate, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        inFlight -= 1;
      },
    };
    expect(await runDueJobs({ ctx: jobContext(), handlers, limit: 20, lease: { concurrency: 3 } })).toBe(7);
    expect(peak).toBe(3);
    expect([...seen].sort()).toEqual([...keys].sort());
    const open = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from jobs where dedupe_key like 'lanes-%' and status <> 'done'`,
    );
    expect(open[0]!.n).toBe(0);
  });
});

describe("job leases", () => {
  it("a job whose worker died (kill -9 mid-run) is taken again once its short lease ends, within 30 s", async () => {
    await enqueueJob(ctx.database.db, { kind: "documents.expire", payload: {}, dedupeKey: "teste-lease-morto" });
    // A worker takes it and dies without finishing (no more heartbeats): the row stays 'running'.
    const died = { "documents.expire": async () => new Promise<void>(() => {}) };
    void runDueJobs({
      ctx: jobContext(),
      handlers: died,
      limit: 1,
      now: () => new Date(),
      lease: { heartbeatMs: 2 ** 30 },
    });
    await expect
      .poll(
        async () =>
          (await ctx.database.db.select().from(jobs).where(eq(jobs.dedupe_key, "teste-lease-morto")))[0]?.status,
      )
      .toBe("running");
    const [taken] = await ctx.database.db.select().from(jobs).where(eq(jobs.dedupe_key, "teste-lease-morto"));
    const leaseLeft = taken!.locked_until!.getTime() - Date.now();
    expect(leaseLeft).toBeGreaterThan(0);
    expect(leaseLeft).toBeLessThanOrEqual(LEASE_MS);
    expect(LEASE_MS + 1000).toBeLessThan(30_000);

    let ran = 0;
    const handlers = {
      "documents.expire": async () => {
        ran += 1;
      },
    };
    expect(await runDueJobs({ ctx: jobContext(), handlers })).toBe(0);
    const afterLease = () => new Date(taken!.locked_until!.getTime() + 1);
    expect(await runDueJobs({ ctx: jobContext(), handlers, limit: 20, now: afterLease })).toBe(1);
    expect(ran).toBe(1);
  });

  it("a long job keeps its lease by heartbeat: no other worker takes it while it runs", async () => {
    await enqueueJob(ctx.database.db, { kind: "documents.expire", payload: {}, dedupeKey: "teste-lease-longo" });
    let runs = 0;
    let release!: () => void;
    const slow = {
      "documents.expire": async () => {
        runs += 1;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    };
    const lease = { leaseMs: 400, heartbeatMs: 50 };
    const first = runDueJobs({ ctx: jobContext(), handlers: slow, limit: 1, now: () => new Date(), lease });
    await expect.poll(() => runs).toBe(1);
    // Well past the first lease: without the heartbeat another worker would take the job again.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await runDueJobs({ ctx: jobContext(), handlers: slow, limit: 20, now: () => new Date(), lease })).toBe(0);
    expect(runs).toBe(1);
    release();
    expect(await first).toBe(1);
    const [row] = await ctx.database.db.select().from(jobs).where(eq(jobs.dedupe_key, "teste-lease-longo"));
    expect(row!.status).toBe("done");
  });
});

describe("expiry sweep", () => {
  it("moves sent and viewed documents past their deadline to expired, with an audit event; leaves the rest", async () => {
    const versionId = await publishedVersionId();
    const patient = await insertPatient(ctx.database, clinic.tenantId);
    const past = new Date(Date.now() - 8 * 24 * 60 * 60_000);
    const make = (status: "sent" | "viewed" | "draft" | "signed", createdAt: Date) =>
      insertDocument(ctx.database, {
        tenantId: clinic.tenantId,
        pacienteId: patient,
        templateVersionId: versionId,
        status,
        createdAt,
      });
    const sentOld = await make("sent", past);
    const viewedOld = await make("viewed", past);
    const draftOld = await make("draft", past);
    const signedOld = await make("signed", past);
    const sentNew = await make("sent", new Date());
    const round = await ctx.app.worker.tick({ sweep: true });
    expect(round.expired).toBeGreaterThanOrEqual(2);
    const statuses = Object.fromEntries(
      (
        await ctx.database.db
          .select({ id: contratos.id, status: contratos.status })
          .from(contratos)
          .where(eq(contratos.tenant_id, clinic.tenantId))
      ).map((r) => [r.id, r.status]),
    );
    expect([
      statuses[sentOld],
      statuses[viewedOld],
      statuses[draftOld],
      statuses[signedOld],
      statuses[sentNew],
    ]).toEqual(["expired", "expired", "draft", "signed", "sent"]);
    const events = await rawRows<{ entity_id: string }>(
      ctx.database.db,
      sql`select entity_id from audit_events where action = 'document.expired' and tenant_id = ${clinic.tenantId}`,
    );
    expect(events.map((e) => e.entity_id).sort()).toEqual([sentOld, viewedOld].sort());
  });
});

describe("the audit trail is append-only and hash-chained", () => {
  it("chains every event of a tenant, and verification finds an edited, a removed or a cut-off event", async () => {
    const c = await newClinic(ctx.app);
    for (let i = 0; i < 4; i += 1) {
      await withTenant(ctx.database.db, c.tenantId, (tx) =>
        recordAuditEvent(
          tx,
          { tenantId: c.tenantId, actorProfileId: c.profileId, ip: "10.0.0.1", userAgent: "teste" },
          { action: "teste.evento", entityType: "teste", data: { i } },
        ),
      );
    }
    const intact = await verifyAuditChain(ctx.database.db, anchorKey(), c.tenantId);
    expect(intact.intact).toBe(true);
    expect(intact.events).toBeGreaterThanOrEqual(4);
    const rows = await rawRows<{ seq: string; prev_hash: string; hash: string }>(
      ctx.database.db,
      sql`select seq, prev_hash, hash from audit_events where tenant_id = ${c.tenantId} order by seq`,
    );
    rows.forEach((row, i) => {
      expect(Number(row.seq)).toBe(i + 1);
      expect(row.prev_hash).toBe(i === 0 ? "0".repeat(64) : rows[i - 1]!.hash);
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    });

    // The application's role can neither change nor remove an event.
    await expect(
      withTenant(ctx.database.db, c.tenantId, (tx) =>
        tx.execute(sql`update audit_events set action = 'x' where tenant_id = ${c.tenantId}`),
      ),
    ).rejects.toThrow();
    await expect(
      withTenant(ctx.database.db, c.tenantId, (tx) =>
        tx.execute(sql`delete from audit_events where tenant_id = ${c.tenantId}`),
      ),
    ).rejects.toThrow();
    // Nor can the owner role while the append-only trigger stands.
    await expect(
      ctx.database.db.execute(sql`update audit_events set action = 'x' where tenant_id = ${c.tenantId}`),
    ).rejects.toThrow();

    // Someone with full database access edits the third event behind the triggers' back.
    await tamper(sql`update audit_events set data = '{"i": 99}'::jsonb where tenant_id = ${c.tenantId} and seq = 3`);
    expect(await verifyAuditChain(ctx.database.db, anchorKey(), c.tenantId)).toMatchObject({
      intact: false,
      first_broken_seq: 3,
    });

    // The owner's endpoint says the same; other roles may not ask.
    const report = await ctx.app.inject({ method: "GET", url: "/api/audit/verify", headers: { cookie: c.cookie } });
    expect(report.json()).toMatchObject({ intact: false, first_broken_seq: 3 });
    const auditor = await newStaff(ctx.app, ctx.database, c.tenantId, "auditor");
    expect(
      (await ctx.app.inject({ method: "GET", url: "/api/audit/verify", headers: { cookie: auditor.cookie } }))
        .statusCode,
    ).toBe(403);

    // A removed last event is found too (the head no longer matches).
    const d = await newClinic(ctx.app);
    await withTenant(ctx.database.db, d.tenantId, (tx) =>
      recordAuditEvent(
        tx,
        { tenantId: d.tenantId, actorProfileId: d.profileId },
        { action: "teste.ultimo", entityType: "teste" },
      ),
    );
    expect((await verifyAuditChain(ctx.database.db, anchorKey(), d.tenantId)).intact).toBe(true);
    await tamper(sql`delete from audit_events where tenant_id = ${d.tenantId} and action = 'teste.ultimo'`);
    expect((await verifyAuditChain(ctx.database.db, anchorKey(), d.tenantId)).intact).toBe(false);
  });
});

describe("audit verification cannot be blinded", () => {
  const record = (c: SignedIn, i: number) =>
    withTenant(ctx.database.db, c.tenantId, (tx) =>
      recordAuditEvent(
        tx,
        { tenantId: c.tenantId, actorProfileId: c.profileId },
        { action: "teste.ancora", entityType: "teste", data: { i } },
      ),
    );

  it("finds a chain rewritten with every hash recomputed, once the worker has anchored it", async () => {
    const c = await newClinic(ctx.app);
    for (let i = 0; i < 3; i += 1) await record(c, i);
    const round = await ctx.app.worker.tick({ sweep: true });
    expect(round.anchored).toBeGreaterThanOrEqual(1);
    expect(await anchorAuditChains(ctx.database.db, anchorKey())).toBe(0); // nothing moved since
    const before = await verifyAuditChain(ctx.database.db, anchorKey(), c.tenantId);
    expect(before).toMatchObject({ intact: true, problems: [] });
    expect(before.anchored_seq).toBe(before.events);

    // The database owner edits event 2 and recomputes every hash after it, and the head: the hash
    // chain alone now looks intact…
    await tamper(sql`update audit_events set data = '{"i": 42}'::jsonb where tenant_id = ${c.tenantId} and seq = 2`);
    await ctx.database.db.execute(sql`alter table audit_events disable trigger audit_events_append_only`);
    try {
      const rows = await rawRows<{ id: string; seq: string }>(
        ctx.database.db,
        sql`select id, seq from audit_events where tenant_id = ${c.tenantId} order by seq`,
      );
      let prev: string | null = null;
      for (const row of rows) {
        if (prev !== null)
          await ctx.database.db.execute(sql`update audit_events set prev_hash = ${prev} where id = ${row.id}`);
        const [h] = await rawRows<{ h: string }>(
          ctx.database.db,
          sql`select app_audit_event_hash(e) as h from audit_events e where id = ${row.id}`,
        );
        await ctx.database.db.execute(sql`update audit_events set hash = ${h!.h} where id = ${row.id}`);
        prev = h!.h;
      }
      await ctx.database.db.execute(sql`update audit_chain_heads set hash = ${prev} where tenant_id = ${c.tenantId}`);
    } finally {
      await ctx.database.db.execute(sql`alter table audit_events enable trigger audit_events_append_only`);
    }
    const [fn] = await rawRows<{ broken: string | null }>(
      ctx.database.db,
      sql`select app_verify_audit_chain(${c.tenantId}::uuid) as broken`,
    );
    expect(fn!.broken).toBeNull();
    // …but not to the anchors, which only the server's key can sign.
    const after = await verifyAuditChain(ctx.database.db, anchorKey(), c.tenantId);
    expect(after.intact).toBe(false);
    expect(after.problems.join(" ")).toContain("reescrita");

    // Re-anchoring the forged chain with another key does not help either.
    const forger = createSecretBox(Buffer.alloc(32, 7)).deriveKey(AUDIT_ANCHOR_KEY_PURPOSE);
    await ctx.database.db.execute(sql`delete from audit_anchors where tenant_id = ${c.tenantId}`);
    await anchorAuditChains(ctx.database.db, forger);
    const forged = await verifyAuditChain(ctx.database.db, anchorKey(), c.tenantId);
    expect(forged.intact).toBe(false);
    expect(forged.problems.join(" ")).toContain("assinatura válida");
  });

  it("checks every clinic that has events, and reports one whose chain head was removed", async () => {
    const c = await newClinic(ctx.app);
    await record(c, 1);
    await ctx.database.db.execute(sql`delete from audit_chain_heads where tenant_id = ${c.tenantId}`);
    const reports = await verifyAllAuditChains(ctx.database.db, anchorKey());
    const mine = reports.find((r) => r.tenant_id === c.tenantId);
    expect(mine).toBeDefined();
    expect(mine!.intact).toBe(false);
    expect(mine!.problems.join(" ")).toContain("cabeça da cadeia");
  });
});

describe("after a signature", () => {
  it("the worker runs the finalize job: sealed PDF stored, e-mails with it attached, delivered over SMTP", async () => {
    const { documentId, patient } = await signableDocument(ctx.app, clinic, { database: ctx.database });
    const sent = await ctx.app.inject({
      method: "POST",
      url: `/api/documents/${documentId}/send`,
      headers: { cookie: clinic.cookie },
      payload: {},
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const token = tokenOf(sent.json().link);
    const { response: signed } = await signAsPatient(ctx.app, ctx.database, token, patient, {
      email: "assinante@exemplo.com.br",
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(
      (
        await ctx.app.inject({
          method: "GET",
          url: `/api/documents/${documentId}/signed-pdf`,
          headers: { cookie: clinic.cookie },
        })
      ).statusCode,
    ).toBe(404);

    const before = smtp.received.length;
    const round = await ctx.app.worker.tick({ sweep: false });
    expect(round.jobs).toBeGreaterThanOrEqual(1);
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    expect(row!.signed_pdf_file_id).not.toBeNull();
    const pdf = await ctx.app.inject({
      method: "GET",
      url: `/api/documents/${documentId}/signed-pdf`,
      headers: { cookie: clinic.cookie },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // The e-mails the job queued go out in the following round, with the sealed PDF attached.
    await ctx.app.worker.tick({ sweep: false });
    const delivered = smtp.received.slice(before);
    // The patient's copy goes to the address on the record, not to the different one typed (decision 045).
    expect(patient.email).toBeTruthy();
    expect(delivered.map((m) => m.to).flat()).toContain(patient.email!.toLowerCase());
    expect(delivered.map((m) => m.to).flat()).not.toContain("assinante@exemplo.com.br");
    expect(delivered.some((m) => m.raw.includes("application/pdf"))).toBe(true);
  });
});
