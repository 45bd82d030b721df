/**
 * The clinic's audit trail anchored outside the operator (decision 072). The HMAC anchors
 * (audit-anchors.ts, decision 013) need the instance key to be checked, so they convince only the
 * operator. Here a time-stamp authority signs the head of each clinic's chain: whoever holds the
 * exported trail can check, without trusting us, that every event up to that head existed at the
 * token's genTime.
 *
 * What is hashed: the head is the hash of event `seq` (app_audit_event_hash, migration 0015: SHA-256
 * over all the event's columns and the previous event's hash, hex). The token's messageImprint is
 * SHA-256 over the 32 bytes that hex spells — `printf %s HASH | xxd -r -p | sha256sum`.
 *
 * Cadence: a clinic's head gets a token when it moved since its last token and that token is at
 * least AUDIT_TIMESTAMP_EVERY_MINUTES old (default 60). The worker's sweep enqueues one job
 * (`audit.trail_timestamp`, one pending at a time by its dedupe key, due 5 minutes later so it never
 * holds up sealing) when some clinic is due; the
 * token is asked for outside any transaction and written in a short one that holds a per-clinic
 * advisory lock and checks again, so two workers never write two. An authority that fails stops the
 * run and the job is retried with back-off; nothing is written without a verified token.
 */
import { createHash, X509Certificate } from "node:crypto";
import { and, desc, eq, gt, gte, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/client.js";
import { rawRows } from "../../../db/raw.js";
import { auditTrailTimestamps } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import type { JobContext } from "../../jobs/job-context.js";
import { readTimeStampToken } from "../timestamping/timestamp-token.js";
import { recordAuditEvent } from "./record-audit-event.js";
import { OID } from "../sealing/der.js";
import { requestTimestamp, type TsaConfig, tsaConfigFromEnv, TsaError } from "../timestamping/tsa-client.js";

export const TRAIL_TIMESTAMP_JOB_KEY = "audit.trail_timestamp";
/**
 * The job runs this long after the sweep saw a clinic due: the trail can wait a few minutes, the
 * sealing and messaging jobs (same queue, taken oldest first) should not wait behind it.
 */
export const TRAIL_TIMESTAMP_DELAY_MS = 5 * 60_000;
/** Clinics one run stamps at most (the rest: the next job, enqueued by the next sweep). */
const MAX_PER_RUN = 200;
const NO_AUTHORITY =
  "trilha de auditoria: sem autoridade de carimbo do tempo (TSA_URL=none ou vazia); as trilhas das clínicas não são ancoradas";
/** Each environment is told once that nothing is anchored. */
const told = new WeakSet<object>();

const HEX_HASH = /^[0-9a-f]{64}$/;

/** The messageImprint of a chain head: SHA-256 of the 32 bytes the head's hex hash spells. */
export function trailImprint(headHashHex: string): Buffer {
  if (!HEX_HASH.test(headHashHex)) throw new Error("o hash da cabeça da cadeia deve ter 64 dígitos hexadecimais");
  return createHash("sha256").update(Buffer.from(headHashHex, "hex")).digest();
}

export const everyMsOf = (env: { AUDIT_TIMESTAMP_EVERY_MINUTES?: number | undefined }): number =>
  (env.AUDIT_TIMESTAMP_EVERY_MINUTES ?? 60) * 60_000;

/** The authority's name as its certificate says it (CN), else the address asked. */
export function authorityName(tsaCertificateDer: Buffer | undefined, fallback: string): string {
  if (!tsaCertificateDer) return fallback;
  try {
    const subject = new X509Certificate(tsaCertificateDer).subject;
    return /(?:^|\n)CN=([^\n]+)/.exec(subject)?.[1] ?? fallback;
  } catch {
    return fallback;
  }
}

export interface DueTrail {
  tenantId: string;
  seq: number;
  eventId: string;
  hash: string;
}

/** Clinics whose head moved since their last token and whose last token is `everyMs` old (or none). */
export async function dueTrails(db: DbOrTx, now: Date, everyMs: number, limit = 500): Promise<DueTrail[]> {
  const before = new Date(now.getTime() - everyMs);
  const rows = await rawRows<{ tenant_id: string; seq: string | number; event_id: string; hash: string }>(
    db,
    sql`select h.tenant_id, e.seq, e.id as event_id, e.hash
          from audit_chain_heads h
          join audit_events e on e.tenant_id = h.tenant_id and e.seq = h.seq
          left join lateral (select t.seq, t.created_at from audit_trail_timestamps t
                              where t.tenant_id = h.tenant_id order by t.seq desc limit 1) last on true
         where h.seq > 0
           and (last.seq is null or (last.seq < h.seq and last.created_at <= ${before.toISOString()}::timestamptz))
         order by h.tenant_id
         limit ${limit}`,
  );
  return rows.map((r) => ({ tenantId: r.tenant_id, seq: Number(r.seq), eventId: r.event_id, hash: r.hash }));
}

export interface TrailTimestampSummary {
  /** False with TSA_URL=none (or unset): nothing done. */
  configured: boolean;
  /** Tokens written. */
  stamped: number;
  /** Clinics found due but already stamped by another worker meanwhile. */
  skipped: number;
}

interface StampTrailOptions {
  ctx: JobContext;
  tsa: TsaConfig;
  trail: DueTrail;
  now: Date;
  everyMs: number;
}

/**
 * A verified token over `trail`'s head, asked outside any transaction, written in a short one that
 * takes the clinic's advisory lock and checks again (no token of this or a later head, none
 * younger than `everyMs`). False when another worker got there first; the authority's error is thrown.
 */
async function stampTrail({ ctx, tsa, trail, now, everyMs }: StampTrailOptions): Promise<boolean> {
  const imprint = trailImprint(trail.hash);
  let token;
  try {
    token = await requestTimestamp(imprint, tsa);
  } catch (error) {
    if (error instanceof TsaError)
      ctx.log.warn(
        { err: error, clinica: trail.tenantId },
        "trilha de auditoria: a autoridade de carimbo do tempo não deu o carimbo; tenta-se de novo mais tarde",
      );
    throw error;
  }
  return withTenant(ctx.db, trail.tenantId, async (tx) => {
    // One writer per clinic at a time; then check again what another worker may have written.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`trilha:carimbo:${trail.tenantId}`}))`);
    const [recent] = await tx
      .select({ id: auditTrailTimestamps.id })
      .from(auditTrailTimestamps)
      .where(
        and(
          eq(auditTrailTimestamps.tenant_id, trail.tenantId),
          or(
            gte(auditTrailTimestamps.seq, trail.seq),
            gt(auditTrailTimestamps.created_at, new Date(now.getTime() - everyMs)),
          ),
        ),
      )
      .limit(1);
    if (recent) return false;
    await tx.insert(auditTrailTimestamps).values({
      tenant_id: trail.tenantId,
      seq: trail.seq,
      event_id: trail.eventId,
      hash: trail.hash,
      token_der: token.tokenDer,
      gen_time: token.genTime,
      tsa: authorityName(token.tsaCertificateDer, tsa.urls[0] ?? "autoridade de carimbo do tempo"),
      tsa_certificate_sha256: token.tsaCertificateDer
        ? createHash("sha256").update(token.tsaCertificateDer).digest("hex")
        : null,
      created_at: now,
    });
    return true;
  });
}

/**
 * One run: a verified token for every due clinic (see the module comment). Throws the authority's
 * error (after writing what it could) so the job is retried later.
 */
export async function timestampAuditTrails(ctx: JobContext, now: Date = new Date()): Promise<TrailTimestampSummary> {
  const summary: TrailTimestampSummary = { configured: false, stamped: 0, skipped: 0 };
  const tsa = tsaConfigFromEnv(ctx.env);
  if (!tsa) {
    if (!told.has(ctx.env)) ctx.log.info(NO_AUTHORITY);
    told.add(ctx.env);
    return summary;
  }
  summary.configured = true;
  const everyMs = everyMsOf(ctx.env);
  for (const trail of await dueTrails(ctx.db, now, everyMs, MAX_PER_RUN)) {
    const written = await stampTrail({ ctx, tsa, trail, now, everyMs });
    if (written) summary.stamped += 1;
    else summary.skipped += 1;
  }
  if (summary.stamped > 0) ctx.log.info({ carimbos: summary.stamped }, "trilha de auditoria: cabeças ancoradas");
  return summary;
}

export interface TrailRenewalSummary {
  /** False with TSA_URL=none (or unset): nothing done. */
  configured: boolean;
  /** Clinics whose latest token was renewed (a renewal event, then a token over it). */
  renewed: number;
  /** Due clinics left for another day (the authority's own certificate would not help). */
  postponed: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
export const TRAIL_RENEWED_ACTION = "audit.trail_timestamp_renewed";

/** When the authority certificate inside a token expires (null: no certificate, or unreadable). */
export function tokenAuthorityNotAfter(tokenDer: Buffer): Date | null {
  try {
    const der = readTimeStampToken(tokenDer).tsaCertificateDer;
    return der ? new Date(new X509Certificate(der).validTo) : null;
  } catch {
    return null;
  }
}

/** Each clinic's latest token whose authority certificate expires within `marginDays` of `now`. */
async function anchorsToRenew(ctx: JobContext, now: Date, marginDays: number) {
  const latest = await ctx.db
    .selectDistinctOn([auditTrailTimestamps.tenant_id], {
      id: auditTrailTimestamps.id,
      tenantId: auditTrailTimestamps.tenant_id,
      seq: auditTrailTimestamps.seq,
      tokenDer: auditTrailTimestamps.token_der,
      tsa: auditTrailTimestamps.tsa,
    })
    .from(auditTrailTimestamps)
    .orderBy(auditTrailTimestamps.tenant_id, desc(auditTrailTimestamps.seq));
  return latest.flatMap((row) => {
    const notAfter = tokenAuthorityNotAfter(row.tokenDer);
    return notAfter && notAfter.getTime() - marginDays * DAY_MS <= now.getTime() ? [{ ...row, notAfter }] : [];
  });
}

/**
 * The trail's anchors re-time-stamped before their authority's certificate expires (decision 078,
 * as decision 064 does for sealed PDFs), run by the daily archive job. For each clinic whose LATEST
 * token's authority certificate expires within RETIMESTAMP_MARGIN_DAYS, an event
 * `audit.trail_timestamp_renewed` goes into the clinic's own trail carrying the SHA-256 of that
 * token's DER; then a new token is asked over the new head. The new token covers the chain, and so
 * the old token's bytes, at a time its certificate was still valid: the proof passes from one
 * authority certificate to the next, like an archive time-stamp. Earlier tokens are covered
 * through the chain by the latest. One probe first: when the authority's own certificate would
 * expire within the margin too, nothing is renewed (the warning says so) — no daily loop.
 */
export async function renewTrailAnchors(ctx: JobContext, now: Date = new Date()): Promise<TrailRenewalSummary> {
  const summary: TrailRenewalSummary = { configured: false, renewed: 0, postponed: 0 };
  const tsa = tsaConfigFromEnv(ctx.env);
  if (!tsa) return summary;
  summary.configured = true;
  const margin = ctx.env.RETIMESTAMP_MARGIN_DAYS;
  const due = await anchorsToRenew(ctx, now, margin);
  if (due.length === 0) return summary;
  const probe = await requestTimestamp(createHash("sha256").update(`trilha: sonda ${now.toISOString()}`).digest(), tsa);
  const authorityNotAfter = probe.tsaCertificateDer
    ? new Date(new X509Certificate(probe.tsaCertificateDer).validTo)
    : now;
  if (authorityNotAfter.getTime() - margin * DAY_MS <= now.getTime()) {
    ctx.log.warn(
      { venceEm: authorityNotAfter.toISOString(), margemDias: margin, clinicas: due.length },
      "trilha de auditoria: o certificado da autoridade de carimbo do tempo vence dentro da margem; os carimbos da trilha não são renovados hoje",
    );
    summary.postponed = due.length;
    return summary;
  }
  for (const anchor of due.slice(0, MAX_PER_RUN)) {
    const recorded = await withTenant(ctx.db, anchor.tenantId, async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`trilha:carimbo:${anchor.tenantId}`}))`);
      // Still the latest token (another run may have renewed it meanwhile).
      const [newer] = await tx
        .select({ id: auditTrailTimestamps.id })
        .from(auditTrailTimestamps)
        .where(and(eq(auditTrailTimestamps.tenant_id, anchor.tenantId), gt(auditTrailTimestamps.seq, anchor.seq)))
        .limit(1);
      if (newer) return false;
      await recordAuditEvent(
        tx,
        { tenantId: anchor.tenantId, actorProfileId: null },
        {
          action: TRAIL_RENEWED_ACTION,
          entityType: "tenant",
          entityId: anchor.tenantId,
          data: {
            seq_carimbo: anchor.seq,
            carimbo_sha256: createHash("sha256").update(anchor.tokenDer).digest("hex"),
            autoridade: anchor.tsa,
            autoridade_vence_em: anchor.notAfter.toISOString(),
          },
        },
      );
      return true;
    });
    if (!recorded) continue;
    const [head] = await dueHeadOf(ctx, anchor.tenantId);
    // Not stamped now (another worker did): the head's hourly token covers the event anyway.
    if (head && (await stampTrail({ ctx, tsa, trail: head, now, everyMs: 0 }))) summary.renewed += 1;
  }
  if (summary.renewed > 0)
    ctx.log.info({ renovados: summary.renewed }, "trilha de auditoria: carimbos da trilha renovados");
  return summary;
}

/** The clinic's chain head, as a trail to stamp. */
async function dueHeadOf(ctx: JobContext, tenantId: string): Promise<DueTrail[]> {
  const rows = await rawRows<{ seq: string | number; event_id: string; hash: string }>(
    ctx.db,
    sql`select e.seq, e.id as event_id, e.hash
          from audit_chain_heads h
          join audit_events e on e.tenant_id = h.tenant_id and e.seq = h.seq
         where h.tenant_id = ${tenantId}`,
  );
  return rows.map((r) => ({ tenantId, seq: Number(r.seq), eventId: r.event_id, hash: r.hash }));
}

/**
 * The sweep's part (every minute): enqueues the job when some clinic is due and none is pending.
 * With TSA_URL=none (or unset) nothing is enqueued and the log says so once.
 */
export async function scheduleTrailTimestamps(ctx: JobContext, now: Date = new Date()): Promise<boolean> {
  if (!tsaConfigFromEnv(ctx.env)) {
    if (!told.has(ctx.env)) ctx.log.info(NO_AUTHORITY);
    told.add(ctx.env);
    return false;
  }
  const due = await dueTrails(ctx.db, now, everyMsOf(ctx.env), 1);
  if (due.length === 0) return false;
  await enqueueJob(ctx.db, {
    kind: "audit.trail_timestamp",
    payload: {},
    dedupeKey: TRAIL_TIMESTAMP_JOB_KEY,
    runAt: new Date(now.getTime() + TRAIL_TIMESTAMP_DELAY_MS),
    maxAttempts: 5,
  });
  return true;
}

/** A token as the evidence and the staff list show it. */
export interface TrailTimestamp {
  seq: number;
  hash: string;
  tokenDer: Buffer;
  genTime: Date;
  tsa: string;
}

/** The clinic's latest token (its head precedes anything sealed now), or null. Inside a tenant transaction. */
export async function latestTrailTimestamp(tx: DbOrTx, tenantId: string): Promise<TrailTimestamp | null> {
  const [row] = await tx
    .select()
    .from(auditTrailTimestamps)
    .where(eq(auditTrailTimestamps.tenant_id, tenantId))
    .orderBy(desc(auditTrailTimestamps.seq))
    .limit(1);
  return row ? { seq: row.seq, hash: row.hash, tokenDer: row.token_der, genTime: row.gen_time, tsa: row.tsa } : null;
}

/** The clinic's tokens, newest first, for the staff list (decision 072): read in the tenant's scope. */
export async function listTrailTimestamps(
  db: Db,
  tenantId: string,
  limit: number,
): Promise<{ seq: number; hash: string; gen_time: string; tsa: string; token_b64: string }[]> {
  const rows = await withTenant(db, tenantId, (tx) =>
    tx
      .select()
      .from(auditTrailTimestamps)
      .where(eq(auditTrailTimestamps.tenant_id, tenantId))
      .orderBy(desc(auditTrailTimestamps.seq))
      .limit(limit),
  );
  return rows.map((r) => ({
    seq: r.seq,
    hash: r.hash,
    gen_time: r.gen_time.toISOString(),
    tsa: r.tsa,
    token_b64: r.token_der.toString("base64"),
  }));
}

export interface TrailTimestampCheck {
  /** Tokens that hold. */
  valid: number;
  /** The highest event a valid token covers (0 when none). */
  stampedSeq: number;
  /** genTime of that token. */
  stampedAt: Date | null;
  /** What failed, in pt-BR (empty when every token holds). */
  problems: string[];
}

/**
 * Checks one token against the trail: its signature, that it is over SHA-256 of the hash the chain
 * has today at its seq, and that the row says what the token says. Returns a pt-BR problem or null.
 */
export function trailTimestampProblem(
  row: { seq: number; hash: string; tokenDer: Buffer; genTime: Date },
  eventHashNow: string | undefined,
): string | null {
  const where = `O carimbo do tempo da trilha no evento ${row.seq}`;
  let info;
  try {
    info = readTimeStampToken(row.tokenDer);
  } catch {
    return `${where} não é um carimbo do tempo legível.`;
  }
  if (!info.signatureValid)
    return `${where} não tem assinatura válida da autoridade (${info.reason ?? "não confere"}).`;
  if (eventHashNow === undefined) return `${where} aponta para um evento que não existe mais na trilha.`;
  if (eventHashNow !== row.hash)
    return `O evento ${row.seq} não é mais o que o carimbo do tempo cobriu: a trilha foi reescrita.`;
  if (info.messageImprint.hashAlgorithmOid !== OID.sha256 || !info.messageImprint.hash.equals(trailImprint(row.hash)))
    return `${where} não é sobre o hash da trilha nesse evento.`;
  if (info.genTime.getTime() !== row.genTime.getTime())
    return `${where} registra uma data diferente da que o carimbo traz.`;
  return null;
}

/** Every token of a clinic, checked (npm run audit:verify). Reads as the server's role. */
export async function checkTrailTimestamps(db: DbOrTx, tenantId: string): Promise<TrailTimestampCheck> {
  const rows = await db
    .select()
    .from(auditTrailTimestamps)
    .where(eq(auditTrailTimestamps.tenant_id, tenantId))
    .orderBy(auditTrailTimestamps.seq);
  const events = await rawRows<{ seq: string | number; hash: string }>(
    db,
    sql`select e.seq, e.hash from audit_events e
          join audit_trail_timestamps t on t.tenant_id = e.tenant_id and t.seq = e.seq
         where e.tenant_id = ${tenantId}`,
  );
  const stored = new Map(events.map((e) => [Number(e.seq), e.hash]));
  const check: TrailTimestampCheck = { valid: 0, stampedSeq: 0, stampedAt: null, problems: [] };
  for (const row of rows) {
    const problem = trailTimestampProblem(
      { seq: row.seq, hash: row.hash, tokenDer: row.token_der, genTime: row.gen_time },
      stored.get(row.seq),
    );
    if (problem) {
      check.problems.push(problem);
      continue;
    }
    check.valid += 1;
    check.stampedSeq = row.seq;
    check.stampedAt = row.gen_time;
  }
  // Each renewal (decision 078) names the token it renewed by its hash: that token must still be the one kept.
  const renewals = await rawRows<{ seq: string | number; data: { seq_carimbo?: unknown; carimbo_sha256?: unknown } }>(
    db,
    sql`select seq, data from audit_events where tenant_id = ${tenantId} and action = ${TRAIL_RENEWED_ACTION} order by seq`,
  );
  const tokenHashes = new Map(rows.map((r) => [r.seq, createHash("sha256").update(r.token_der).digest("hex")]));
  for (const renewal of renewals) {
    const renewed = Number(renewal.data?.seq_carimbo);
    if (tokenHashes.get(renewed) !== renewal.data?.carimbo_sha256)
      check.problems.push(
        `O evento ${Number(renewal.seq)} renovou o carimbo do tempo da trilha no evento ${renewed}, mas esse carimbo não é mais o guardado.`,
      );
  }
  return check;
}
