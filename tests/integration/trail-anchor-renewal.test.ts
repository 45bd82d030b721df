/**
 * The trail's anchors re-time-stamped (decision 078): a clinic whose latest trail token was made by
 * an authority certificate about to expire gets, on the daily archive run, an event naming that
 * token's hash and a new token over it by the renewed certificate; a second run does nothing; an
 * authority whose own certificate is about to expire renews nothing; audit verification holds and
 * finds a renewal whose token was swapped. The clock is passed in, moved ahead.
 */
import { createHash } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, auditTrailTimestamps } from "../../src/db/schema.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { jobHandlers } from "../../src/server/jobs/handlers.js";
import { AUDIT_ANCHOR_KEY_PURPOSE } from "../../src/server/services/audit/audit-anchors.js";
import { recordAuditEvent } from "../../src/server/services/audit/record-audit-event.js";
import {
  renewTrailAnchors,
  TRAIL_RENEWED_ACTION,
  timestampAuditTrails,
  tokenAuthorityNotAfter,
  trailImprint,
} from "../../src/server/services/audit/trail-timestamps.js";
import { requestTimestamp, tsaConfigFromEnv } from "../../src/server/services/timestamping/tsa-client.js";
import { verifyAuditChain } from "../../src/server/services/audit/verify-audit-chain.js";
import { type FakeTsa, startFakeTsaServer } from "../fakes/tsa-server.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

const DAY = 24 * 60 * 60 * 1000;
let ctx: TestContext;
let tsa: FakeTsa;
let clinic: SignedIn;
let other: SignedIn;
const logs: string[] = [];
const logger = {
  info: (a: unknown, b?: unknown) => void logs.push(String(typeof a === "string" ? a : b)),
  warn: (a: unknown, b?: unknown) => void logs.push(String(typeof a === "string" ? a : b)),
  error: (a: unknown, b?: unknown) => void logs.push(String(typeof a === "string" ? a : b)),
} as unknown as JobContext["log"];
const jobContext = (): JobContext => ({
  db: ctx.database.db,
  storage: ctx.app.services.storage,
  secretBox: ctx.app.services.secretBox,
  env: { ...ctx.env },
  origin: "http://localhost:3000",
  log: logger,
});
const stampsOf = (tenantId: string) =>
  ctx.database.db
    .select()
    .from(auditTrailTimestamps)
    .where(eq(auditTrailTimestamps.tenant_id, tenantId))
    .orderBy(asc(auditTrailTimestamps.seq));
const renewalsOf = (tenantId: string) =>
  ctx.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.tenant_id, tenantId), eq(auditEvents.action, TRAIL_RENEWED_ACTION)))
    .orderBy(asc(auditEvents.seq));
const move = (who: SignedIn) =>
  recordAuditEvent(
    ctx.database.db,
    { tenantId: who.tenantId, actorProfileId: who.profileId },
    { action: "settings.updated", entityType: "tenant", entityId: who.tenantId, data: { teste: "trilha" } },
  );
const anchorKey = () => ctx.app.services.secretBox.deriveKey(AUDIT_ANCHOR_KEY_PURPOSE);

// Well past anything the suite wrote, then moved on by days.
const T0 = new Date(Date.now() + 2 * DAY);
const day = (n: number) => new Date(T0.getTime() + n * DAY);

beforeAll(async () => {
  // The authority's certificate expires in 30 days: inside the 60-day margin from the start.
  tsa = await startFakeTsaServer({ validDays: 30 });
  ctx = await createTestApp({ env: { TSA_URL: tsa.url, TSA_TIMEOUT_MS: "10000", RETIMESTAMP_MARGIN_DAYS: "60" } });
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  await move(clinic);
  await move(other);
  // Both clinics' heads stamped by the short-lived certificate.
  await timestampAuditTrails(jobContext(), T0);
  expect(await stampsOf(clinic.tenantId)).toHaveLength(1);
  expect(await stampsOf(other.tenantId)).toHaveLength(1);
}, 60_000);

afterAll(async () => {
  await ctx?.close();
  await tsa?.close();
});

describe("the trail's anchors re-time-stamped before their authority's certificate expires (decision 078)", () => {
  it("while the authority's own certificate is about to expire too, nothing is renewed and the log says why", async () => {
    const summary = await renewTrailAnchors(jobContext(), day(1));
    expect(summary.renewed).toBe(0);
    expect(summary.postponed).toBeGreaterThanOrEqual(2);
    expect(await renewalsOf(clinic.tenantId)).toEqual([]);
    expect(await stampsOf(clinic.tenantId)).toHaveLength(1);
    expect(logs.some((l) => l.includes("os carimbos da trilha não são renovados hoje"))).toBe(true);
  });

  it("with a renewed authority certificate, the daily archive job renews each clinic's latest token: an event with its hash, then a token over it", async () => {
    const [old] = await stampsOf(clinic.tenantId);
    tsa.renew(3650);
    await jobHandlers["archive.retimestamp"]!(jobContext(), { dia: "teste" }, null, day(2));

    const [event] = await renewalsOf(clinic.tenantId);
    expect(event?.data).toEqual({
      seq_carimbo: old!.seq,
      carimbo_sha256: createHash("sha256").update(old!.token_der).digest("hex"),
      autoridade: "ACT Teste Consentir",
      autoridade_vence_em: tokenAuthorityNotAfter(old!.token_der)!.toISOString(),
    });
    expect(event!.actor_profile_id).toBeNull();
    const stamps = await stampsOf(clinic.tenantId);
    expect(stamps).toHaveLength(2);
    // The new token covers the renewal event itself (its head), by the renewed certificate.
    expect(stamps[1]!.seq).toBe(Number(event!.seq));
    expect(tokenAuthorityNotAfter(stamps[1]!.token_der)!.getTime()).toBeGreaterThan(day(3000).getTime());
    // The other clinic too, in its own trail.
    expect(await renewalsOf(other.tenantId)).toHaveLength(1);
    expect(await stampsOf(other.tenantId)).toHaveLength(2);

    const report = await verifyAuditChain(ctx.database.db, anchorKey(), clinic.tenantId);
    expect(report.problems).toEqual([]);
    expect(report.intact).toBe(true);
    expect(report.timestamps).toMatchObject({ valid: 2, stamped_seq: Number(event!.seq) });
  });

  it("a second run finds the latest tokens outside the margin and does nothing", async () => {
    const before = tsa.requests.length;
    const summary = await renewTrailAnchors(jobContext(), day(3));
    expect(summary).toMatchObject({ configured: true, renewed: 0, postponed: 0 });
    expect(tsa.requests.length).toBe(before);
    expect(await renewalsOf(clinic.tenantId)).toHaveLength(1);
  });

  it("verification finds a renewal whose renewed token is no longer the one kept", async () => {
    const [renewal] = await renewalsOf(other.tenantId);
    const [renewed] = await stampsOf(other.tenantId);
    // The database owner swaps the renewed token for another valid token over the same head (rows
    // cannot be updated: deleted and written again): each token holds alone, the renewal link not.
    const swap = await requestTimestamp(trailImprint(renewed!.hash), tsaConfigFromEnv(ctx.env)!);
    await ctx.database.db.delete(auditTrailTimestamps).where(eq(auditTrailTimestamps.id, renewed!.id));
    await ctx.database.db
      .insert(auditTrailTimestamps)
      .values({ ...renewed!, token_der: swap.tokenDer, gen_time: swap.genTime });
    const report = await verifyAuditChain(ctx.database.db, anchorKey(), other.tenantId);
    expect(report.intact).toBe(false);
    expect(report.problems).toEqual([
      `O evento ${Number(renewal!.seq)} renovou o carimbo do tempo da trilha no evento ${renewed!.seq}, mas esse carimbo não é mais o guardado.`,
    ]);
    // Put back: it holds again.
    await ctx.database.db.delete(auditTrailTimestamps).where(eq(auditTrailTimestamps.id, renewed!.id));
    await ctx.database.db.insert(auditTrailTimestamps).values(renewed!);
    expect((await verifyAuditChain(ctx.database.db, anchorKey(), other.tenantId)).problems).toEqual([]);
  });
});
