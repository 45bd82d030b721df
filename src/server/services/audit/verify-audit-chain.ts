import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { rawRows } from "../../../db/raw.js";
import { auditChainHeads } from "../../../db/schema.js";
import { checkAuditAnchors } from "./audit-anchors.js";
import { checkTrailTimestamps } from "./trail-timestamps.js";

export interface AuditChainReport {
  tenant_id: string;
  intact: boolean;
  /** The first sequence number whose hash, link or position fails (null when intact). */
  first_broken_seq: number | null;
  events: number;
  /** The highest event covered by a valid signed anchor (0 when none yet). */
  anchored_seq: number;
  /** Time-stamp tokens over the chain that hold (decision 072), the highest event they cover and when. */
  timestamps: { valid: number; stamped_seq: number; stamped_at: string | null };
  /** What failed, in pt-BR (empty when intact). */
  problems: string[];
}

/**
 * Recomputes a tenant's audit chain in PostgreSQL (app_verify_audit_chain, migration 0015): each
 * event's hash over all its columns and the previous hash, no gaps, and the head equal to the
 * last event, so an edited, removed or cut-off event is found. Then checks the chain head exists
 * when events do, and the signed anchors (audit-anchors.ts), so a database owner who recomputes
 * every hash is found too.
 */
export async function verifyAuditChain(db: DbOrTx, anchorKey: Buffer, tenantId: string): Promise<AuditChainReport> {
  const [result] = await rawRows<{ broken: string | number | null }>(
    db,
    sql`select app_verify_audit_chain(${tenantId}::uuid) as broken`,
  );
  const [head] = await db
    .select({ seq: auditChainHeads.seq })
    .from(auditChainHeads)
    .where(eq(auditChainHeads.tenant_id, tenantId));
  const [stored] = await rawRows<{ n: string | number }>(
    db,
    sql`select count(*) as n from audit_events where tenant_id = ${tenantId}::uuid`,
  );
  const events = Number(stored?.n ?? 0);
  const problems: string[] = [];
  let broken = result?.broken === null || result?.broken === undefined ? null : Number(result.broken);
  if (broken !== null) problems.push(`A cadeia de hashes falha a partir do evento ${broken}.`);
  if (!head && events > 0) {
    broken = broken ?? 1;
    problems.push(
      "A cabeça da cadeia desta clínica não existe, embora haja eventos: a trilha não pode ser conferida até o fim.",
    );
  }
  const anchors = await checkAuditAnchors(db, anchorKey, tenantId);
  problems.push(...anchors.problems);
  const stamps = await checkTrailTimestamps(db, tenantId);
  problems.push(...stamps.problems);
  return {
    tenant_id: tenantId,
    intact: problems.length === 0,
    first_broken_seq: broken,
    events: Math.max(head?.seq ?? 0, events),
    anchored_seq: anchors.anchoredSeq,
    timestamps: {
      valid: stamps.valid,
      stamped_seq: stamps.stampedSeq,
      stamped_at: stamps.stampedAt?.toISOString() ?? null,
    },
    problems,
  };
}

/** Every tenant that has events, a chain head or anchors (the CLI): none can hide by losing its head. */
export async function verifyAllAuditChains(db: DbOrTx, anchorKey: Buffer): Promise<AuditChainReport[]> {
  const tenants = await rawRows<{ tenant_id: string }>(
    db,
    sql`select tenant_id from audit_chain_heads
        union select distinct tenant_id from audit_events
        union select distinct tenant_id from audit_anchors
        union select distinct tenant_id from audit_trail_timestamps
        order by tenant_id`,
  );
  const reports: AuditChainReport[] = [];
  for (const { tenant_id } of tenants) reports.push(await verifyAuditChain(db, anchorKey, tenant_id));
  return reports;
}
