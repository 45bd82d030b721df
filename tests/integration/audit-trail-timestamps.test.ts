/**
 * The clinic's audit trail anchored by a time-stamp (decision 072), with the local fake authority:
 * a chain that moved gets one token, not another within the hour, another once it moved again and
 * the hour passed (the clock is passed in, never slept on); two runs at once write one; an authority
 * that is down leaves no row and a later run succeeds; TSA_URL=none does nothing and says so once;
 * clinic B never sees clinic A's tokens; the evidence of a document sealed afterwards carries the
 * latest token; audit verification checks every token and finds a tampered one.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { auditChainHeads, auditTrailTimestamps, contratos, jobs } from "../../src/db/schema.js";
import { withTenant } from "../../src/db/tenant-scope.js";
import { jobHandlers } from "../../src/server/jobs/handlers.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { AUDIT_ANCHOR_KEY_PURPOSE } from "../../src/server/services/audit/audit-anchors.js";
import { recordAuditEvent } from "../../src/server/services/audit/record-audit-event.js";
import {
  latestTrailTimestamp,
  scheduleTrailTimestamps,
  TRAIL_TIMESTAMP_DELAY_MS,
  TRAIL_TIMESTAMP_JOB_KEY,
  timestampAuditTrails,
  trailImprint,
} from "../../src/server/services/audit/trail-timestamps.js";
import { verifyAuditChain } from "../../src/server/services/audit/verify-audit-chain.js";
import { embeddedFiles } from "../../src/server/services/sealing/pdf-embedded-files.js";
import { EVIDENCE_FILE, type Evidence } from "../../src/shared/evidence/evidence.js";
import { type FakeTsa, startFakeTsaServer } from "../fakes/tsa-server.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

const MINUTE = 60_000;
let ctx: TestContext;
let tsa: FakeTsa;
let clinicA: SignedIn;
let clinicB: SignedIn;
const logs: string[] = [];
const logger = {
  info: (a: unknown, b?: unknown) => void logs.push(String(typeof a === "string" ? a : b)),
  warn: (a: unknown, b?: unknown) => void logs.push(String(typeof a === "string" ? a : b)),
  error: (a: unknown, b?: unknown) => void logs.push(String(typeof a === "string" ? a : b)),
} as unknown as JobContext["log"];

const jobContext = (env: Partial<TestContext["env"]> = {}): JobContext => ({
  db: ctx.database.db,
  storage: ctx.app.services.storage,
  secretBox: ctx.app.services.secretBox,
  env: { ...ctx.env, ...env },
  origin: "http://localhost:3000",
  log: logger,
});
const stampsOf = (tenantId: string) =>
  ctx.database.db
    .select()
    .from(auditTrailTimestamps)
    .where(eq(auditTrailTimestamps.tenant_id, tenantId))
    .orderBy(asc(auditTrailTimestamps.seq));
const headOf = async (tenantId: string) =>
  (await ctx.database.db.select().from(auditChainHeads).where(eq(auditChainHeads.tenant_id, tenantId)))[0]!;
/** A staff-side event in the clinic's trail: its chain head moves. */
const move = (who: SignedIn) =>
  recordAuditEvent(
    ctx.database.db,
    { tenantId: who.tenantId, actorProfileId: who.profileId },
    { action: "settings.updated", entityType: "tenant", entityId: who.tenantId, data: { teste: "trilha" } },
  );
/** How many requests the authority got for this head. */
const requestsFor = (hash: string) => tsa.requests.filter((body) => body.includes(trailImprint(hash))).length;

// The clock of these runs: well past anything the suite wrote before, then moved forward.
const T0 = new Date(Date.now() + 24 * 60 * MINUTE);
const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);

beforeAll(async () => {
  tsa = await startFakeTsaServer();
  ctx = await createTestApp({ env: { TSA_URL: tsa.url, TSA_TIMEOUT_MS: "10000" } });
  clinicA = await newClinic(ctx.app);
  clinicB = await newClinic(ctx.app);
  await move(clinicB);
}, 60_000);

afterAll(async () => {
  await ctx?.close();
  await tsa?.close();
});

describe("audit trail time-stamps", () => {
  it("a chain that moved gets one verified token over SHA-256 of its head hash's bytes", async () => {
    await move(clinicA);
    const head = await headOf(clinicA.tenantId);
    const summary = await timestampAuditTrails(jobContext(), at(0));
    expect(summary.configured).toBe(true);
    expect(summary.stamped).toBeGreaterThanOrEqual(2);
    const [stamp, ...more] = await stampsOf(clinicA.tenantId);
    expect(more).toEqual([]);
    expect(stamp).toMatchObject({ seq: head.seq, hash: head.hash, created_at: at(0) });
    expect(stamp!.tsa).toMatch(/\S/);
    expect(requestsFor(head.hash)).toBe(1);
    // The token is an ordinary RFC 3161 token over those 32 bytes: openssl agrees.
    const dir = mkdtempSync(path.join(os.tmpdir(), "consentir-trilha-"));
    writeFileSync(path.join(dir, "cabeca.bin"), Buffer.from(head.hash, "hex"));
    writeFileSync(path.join(dir, "token.der"), stamp!.token_der);
    writeFileSync(path.join(dir, "ca.pem"), tsa.chain.map((c) => c.pem).join("\n"));
    const out = execFileSync(
      "openssl",
      ["ts", "-verify", "-data", "cabeca.bin", "-in", "token.der", "-token_in", "-CAfile", "ca.pem"],
      { cwd: dir, encoding: "utf8" },
    );
    expect(out).toMatch(/Verification: OK/);
  });

  it("not again within the hour, even when the chain moved; again once it moved and the hour passed", async () => {
    await move(clinicA);
    await timestampAuditTrails(jobContext(), at(30));
    expect(await stampsOf(clinicA.tenantId)).toHaveLength(1);
    // Unmoved chains are never stamped again, however long it has been.
    await timestampAuditTrails(jobContext(), at(61));
    const stamps = await stampsOf(clinicA.tenantId);
    expect(stamps).toHaveLength(2);
    expect(stamps[1]!.seq).toBe((await headOf(clinicA.tenantId)).seq);
    expect((await stampsOf(clinicB.tenantId)).map((s) => s.seq)).toHaveLength(1);
    await timestampAuditTrails(jobContext(), at(200));
    expect(await stampsOf(clinicA.tenantId)).toHaveLength(2);
    expect(await stampsOf(clinicB.tenantId)).toHaveLength(1);
  });

  it("two runs at once: both may ask the authority, one token is written", async () => {
    await move(clinicA);
    const head = await headOf(clinicA.tenantId);
    const [one, two] = await Promise.all([
      timestampAuditTrails(jobContext(), at(300)),
      timestampAuditTrails(jobContext(), at(300)),
    ]);
    expect(one.stamped + two.stamped).toBeGreaterThanOrEqual(1);
    const stamps = await stampsOf(clinicA.tenantId);
    expect(stamps).toHaveLength(3);
    expect(stamps.filter((s) => s.seq === head.seq)).toHaveLength(1);
    expect(requestsFor(head.hash)).toBeGreaterThanOrEqual(1);
  });

  it("the sweep enqueues one job at a time, and the job stamps", async () => {
    await move(clinicA);
    const jc = jobContext();
    expect(await scheduleTrailTimestamps(jc, at(400))).toBe(true);
    await scheduleTrailTimestamps(jc, at(400));
    const pending = await ctx.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.dedupe_key, TRAIL_TIMESTAMP_JOB_KEY), eq(jobs.status, "pending")));
    expect(pending).toHaveLength(1);
    // Due a few minutes later: the sealing jobs queued meanwhile go first.
    expect(pending[0]!.run_at).toEqual(new Date(at(400).getTime() + TRAIL_TIMESTAMP_DELAY_MS));
    await jobHandlers["audit.trail_timestamp"]!(jc, {}, null, at(400));
    expect(await stampsOf(clinicA.tenantId)).toHaveLength(4);
    await ctx.database.db.delete(jobs).where(eq(jobs.dedupe_key, TRAIL_TIMESTAMP_JOB_KEY));
    // Nothing due: nothing enqueued.
    expect(await scheduleTrailTimestamps(jc, at(401))).toBe(false);
  });

  it("an authority that is down: no row, the job fails to be retried, and a later run stamps", async () => {
    await move(clinicA);
    const head = await headOf(clinicA.tenantId);
    tsa.mode = "http-500";
    try {
      await expect(timestampAuditTrails(jobContext(), at(500))).rejects.toThrow(/HTTP 500/);
    } finally {
      tsa.mode = "ok";
    }
    expect((await stampsOf(clinicA.tenantId)).filter((s) => s.seq === head.seq)).toEqual([]);
    await timestampAuditTrails(jobContext(), at(502));
    expect((await stampsOf(clinicA.tenantId)).filter((s) => s.seq === head.seq)).toHaveLength(1);
  });

  it("with TSA_URL=none nothing is asked or written, and the log says so once", async () => {
    await move(clinicA);
    const jc = jobContext({ TSA_URL: "none" });
    const before = tsa.requests.length;
    logs.length = 0;
    expect((await timestampAuditTrails(jc, at(900))).configured).toBe(false);
    expect(await scheduleTrailTimestamps(jc, at(900))).toBe(false);
    expect(await timestampAuditTrails(jc, at(901))).toEqual({ configured: false, stamped: 0, skipped: 0 });
    expect(tsa.requests.length).toBe(before);
    expect(logs.filter((l) => /sem autoridade de carimbo do tempo/.test(l))).toHaveLength(1);
  });

  it("clinic B never sees clinic A's tokens", async () => {
    const seen = await withTenant(ctx.database.db, clinicB.tenantId, (tx) => tx.select().from(auditTrailTimestamps));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.tenant_id === clinicB.tenantId)).toBe(true);
    const asked = await withTenant(ctx.database.db, clinicB.tenantId, (tx) =>
      tx.select().from(auditTrailTimestamps).where(eq(auditTrailTimestamps.tenant_id, clinicA.tenantId)),
    );
    expect(asked).toEqual([]);
    expect(
      await withTenant(ctx.database.db, clinicB.tenantId, (tx) => latestTrailTimestamp(tx, clinicA.tenantId)),
    ).toBe(null);
    // And a tenant transaction cannot change one.
    await expect(
      withTenant(ctx.database.db, clinicA.tenantId, (tx) =>
        tx
          .update(auditTrailTimestamps)
          .set({ tsa: "outra" })
          .where(eq(auditTrailTimestamps.tenant_id, clinicA.tenantId)),
      ),
    ).rejects.toThrow();
  });

  it("GET /api/audit/timestamps: the clinic's own tokens for the owner and the administration, newest first", async () => {
    const list = (who: SignedIn, query = "") =>
      ctx.app.inject({ method: "GET", url: `/api/audit/timestamps${query}`, headers: { cookie: who.cookie } });
    const own = await stampsOf(clinicA.tenantId);
    const owner = await list(clinicA);
    expect(owner.statusCode, owner.body).toBe(200);
    const items = owner.json().items as { seq: number; hash: string; token_b64: string; tsa: string }[];
    expect(items.map((i) => i.seq)).toEqual(own.map((s) => s.seq).reverse());
    expect(items[0]!.token_b64).toBe(own.at(-1)!.token_der.toString("base64"));
    const admin = await newStaff(ctx.app, ctx.database, clinicA.tenantId, "admin");
    expect((await list(admin, "?limit=1")).json().items).toHaveLength(1);
    const desk = await newStaff(ctx.app, ctx.database, clinicA.tenantId, "atendente");
    expect((await list(desk)).statusCode).toBe(403);
    // Clinic B lists its own only: none of A's heads.
    const other = (await list(clinicB)).json().items as { hash: string }[];
    expect(other.length).toBeGreaterThan(0);
    expect(other.filter((i) => own.some((s) => s.hash === i.hash))).toEqual([]);
    for (const bad of ["?limit=abc", "?limit=0", "?limit=201"]) {
      const refused = await list(clinicA, bad);
      expect(refused.statusCode, bad).toBe(400);
      const body = refused.json() as { message?: string; issues?: { message: string }[] };
      const said = [body.message ?? "", ...(body.issues ?? []).map((i) => i.message)].join(" ");
      expect(said).toMatch(/\S/);
      expect(said).not.toMatch(/Invalid|expected|received|Too (big|small)/);
    }
  });

  it("a document sealed afterwards carries the clinic's latest token in its evidence", async () => {
    const [latest] = (await stampsOf(clinicA.tenantId)).slice(-1);
    const { documentId, patient } = await signableDocument(ctx.app, clinicA);
    const sent = await ctx.app.inject({
      method: "POST",
      url: `/api/documents/${documentId}/send`,
      payload: {},
      headers: { cookie: clinicA.cookie },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const { response } = await signAsPatient(ctx.app, ctx.database, tokenOf(sent.json().link as string), patient);
    expect(response.statusCode, response.body).toBe(200);
    const sealedSha = async () =>
      (await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId)))[0]?.signed_pdf_sha256;
    for (let round = 0; round < 40 && !(await sealedSha()); round++) {
      await ctx.database.db.execute(
        sql`update jobs set run_at = 'epoch' where kind = 'document.finalize' and status = 'pending' and payload->>'contratoId' = ${documentId}`,
      );
      await ctx.app.worker.tick({ sweep: false });
    }
    const pdf = (await ctx.app.services.storage.get((await sealedSha())!))!;
    const evidence = JSON.parse(
      embeddedFiles(pdf)
        .find((f) => f.name === EVIDENCE_FILE)!
        .bytes.toString("utf8"),
    ) as Evidence;
    expect(evidence.ancora_trilha).toEqual({
      seq: latest!.seq,
      hash: latest!.hash,
      token_b64: latest!.token_der.toString("base64"),
      gen_time: latest!.gen_time.toISOString(),
      tsa: latest!.tsa,
    });
    // The anchor precedes the document: every event of it in the clinic chain comes later.
    const seqs = evidence.eventos.flatMap((e) => (e.cadeia_clinica ? [e.cadeia_clinica.seq] : []));
    expect(seqs.length).toBeGreaterThan(0);
    expect(Math.min(...seqs)).toBeGreaterThan(latest!.seq);
  }, 120_000);

  it("audit verification checks every token, and finds a tampered one", async () => {
    const anchorKey = ctx.app.services.secretBox.deriveKey(AUDIT_ANCHOR_KEY_PURPOSE);
    const stamps = await stampsOf(clinicA.tenantId);
    const before = await verifyAuditChain(ctx.database.db, anchorKey, clinicA.tenantId);
    expect(before.problems).toEqual([]);
    expect(before.timestamps.valid).toBe(stamps.length);
    expect(before.timestamps.stamped_seq).toBe(stamps.at(-1)!.seq);

    // The database owner swaps one token's last byte (inside its signature): the rows cannot be
    // updated, so it deletes and writes the row again.
    const victim = stamps[0]!;
    const tampered = Buffer.from(victim.token_der);
    tampered[tampered.length - 1] = tampered[tampered.length - 1]! ^ 0xff;
    await ctx.database.db.delete(auditTrailTimestamps).where(eq(auditTrailTimestamps.id, victim.id));
    await ctx.database.db.insert(auditTrailTimestamps).values({ ...victim, token_der: tampered });
    const after = await verifyAuditChain(ctx.database.db, anchorKey, clinicA.tenantId);
    expect(after.intact).toBe(false);
    expect(after.problems).toEqual([
      expect.stringMatching(
        new RegExp(`^O carimbo do tempo da trilha no evento ${victim.seq} não tem assinatura válida`),
      ),
    ]);
    expect(after.timestamps.valid).toBe(stamps.length - 1);

    // A token moved to another event's row is not about that event's hash.
    const second = stamps[1]!;
    await ctx.database.db.delete(auditTrailTimestamps).where(eq(auditTrailTimestamps.id, victim.id));
    await ctx.database.db.insert(auditTrailTimestamps).values({ ...victim, token_der: second.token_der });
    const swapped = await verifyAuditChain(ctx.database.db, anchorKey, clinicA.tenantId);
    expect(swapped.problems).toEqual([
      expect.stringMatching(new RegExp(`no evento ${victim.seq} não é sobre o hash da trilha`)),
    ]);
    // Put it back as it was: verification holds again.
    await ctx.database.db.delete(auditTrailTimestamps).where(eq(auditTrailTimestamps.id, victim.id));
    await ctx.database.db.insert(auditTrailTimestamps).values(victim);
    expect((await verifyAuditChain(ctx.database.db, anchorKey, clinicA.tenantId)).problems).toEqual([]);
    const count = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from audit_trail_timestamps where tenant_id = ${clinicA.tenantId}`,
    );
    expect(count[0]!.n).toBe(stamps.length);
  });
});
