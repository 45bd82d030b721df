import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { rawRows } from "../../../db/raw.js";
import { auditChainHeads } from "../../../db/schema.js";

export interface AuditChainReport {
  tenant_id: string;
  intact: boolean;
  /** The first sequence number whose hash, link or position fails (null when intact). */
  first_broken_seq: number | null;
  events: number;
}

/**
 * Recomputes a tenant's audit chain in PostgreSQL (app_verify_audit_chain, migration 0015): each
 * event's hash over all its columns and the previous hash, no gaps, and the head equal to the
 * last event, so an edited, removed or cut-off event is found.
 */
export async function verifyAuditChain(db: DbOrTx, tenantId: string): Promise<AuditChainReport> {
  const [result] = await rawRows<{ broken: string | number | null }>(db, sql`select app_verify_audit_chain(${tenantId}::uuid) as broken`);
  const [head] = await db.select({ seq: auditChainHeads.seq }).from(auditChainHeads).where(eq(auditChainHeads.tenant_id, tenantId));
  const broken = result?.broken === null || result?.broken === undefined ? null : Number(result.broken);
  return { tenant_id: tenantId, intact: broken === null, first_broken_seq: broken, events: head?.seq ?? 0 };
}

/** Every tenant's chain (the CLI). */
export async function verifyAllAuditChains(db: DbOrTx): Promise<AuditChainReport[]> {
  const tenants = await rawRows<{ tenant_id: string }>(db, sql`select tenant_id from audit_chain_heads order by tenant_id`);
  const reports: AuditChainReport[] = [];
  for (const { tenant_id } of tenants) reports.push(await verifyAuditChain(db, tenant_id));
  return reports;
}
