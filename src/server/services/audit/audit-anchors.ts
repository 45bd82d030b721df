import { createHmac, timingSafeEqual } from "node:crypto";
import { asc, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { rawRows } from "../../../db/raw.js";
import { auditAnchors } from "../../../db/schema.js";

/**
 * Signed anchors of the audit chains. PostgreSQL chains each clinic's events by hash,
 * but whoever owns the database could rewrite events and recompute every hash. An anchor is the
 * MAC of (clinic, seq, hash) of the chain head under a key derived from the instance key
 * (APP_SECRET / DATA_DIR/secret.key), which never enters the database; each anchor also covers the
 * previous one's MAC. Verification then needs both the database and the key.
 */
export const AUDIT_ANCHOR_KEY_PURPOSE = "audit-anchor-v1";
const FIRST_PREV_MAC = "0".repeat(64);

export interface AnchorFields {
  tenantId: string;
  seq: number;
  hash: string;
  prevMac: string;
}

export function anchorMac(key: Buffer, anchor: AnchorFields): string {
  return createHmac("sha256", key)
    .update(`v1|${anchor.tenantId}|${anchor.seq}|${anchor.hash}|${anchor.prevMac}`)
    .digest("hex");
}

function macEquals(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** Writes an anchor for every chain whose head moved since its last anchor; returns how many. */
export async function anchorAuditChains(db: DbOrTx, key: Buffer): Promise<number> {
  const moved = await rawRows<{ tenant_id: string; seq: string | number; hash: string; prev_mac: string | null }>(
    db,
    sql`select h.tenant_id, h.seq, h.hash, last.mac as prev_mac
          from audit_chain_heads h
          left join lateral (select a.seq, a.mac from audit_anchors a where a.tenant_id = h.tenant_id
                              order by a.seq desc limit 1) last on true
         where h.seq > 0 and (last.seq is null or last.seq < h.seq)`,
  );
  let written = 0;
  for (const head of moved) {
    const fields = {
      tenantId: head.tenant_id,
      seq: Number(head.seq),
      hash: head.hash,
      prevMac: head.prev_mac ?? FIRST_PREV_MAC,
    };
    const inserted = await rawRows(
      db,
      sql`insert into audit_anchors (tenant_id, seq, hash, prev_mac, mac)
          values (${fields.tenantId}, ${fields.seq}, ${fields.hash}, ${fields.prevMac}, ${anchorMac(key, fields)})
          on conflict (tenant_id, seq) do nothing returning id`,
    );
    written += inserted.length;
  }
  return written;
}

export interface AnchorCheck {
  /** The highest sequence number covered by a valid anchor (0 when none). */
  anchoredSeq: number;
  /** What failed, in pt-BR (empty when every anchor holds). */
  problems: string[];
}

/**
 * Checks a clinic's anchors: each MAC under the key, each linked to the previous one, and each
 * (seq, hash) equal to the event stored at that position today.
 */
export async function checkAuditAnchors(db: DbOrTx, key: Buffer, tenantId: string): Promise<AnchorCheck> {
  const anchors = await db
    .select()
    .from(auditAnchors)
    .where(sql`${auditAnchors.tenant_id} = ${tenantId}`)
    .orderBy(asc(auditAnchors.seq));
  const events = await rawRows<{ seq: string | number; hash: string }>(
    db,
    sql`select e.seq, e.hash from audit_events e join audit_anchors a on a.tenant_id = e.tenant_id and a.seq = e.seq
         where e.tenant_id = ${tenantId}`,
  );
  const stored = new Map(events.map((e) => [Number(e.seq), e.hash]));
  const problems: string[] = [];
  let prevMac = FIRST_PREV_MAC;
  let anchoredSeq = 0;
  for (const anchor of anchors) {
    const fields = { tenantId, seq: anchor.seq, hash: anchor.hash, prevMac: anchor.prev_mac };
    if (!macEquals(anchor.mac, anchorMac(key, fields))) {
      problems.push(`A âncora do evento ${anchor.seq} não tem uma assinatura válida desta instalação.`);
    } else if (anchor.prev_mac !== prevMac) {
      problems.push(`Falta uma âncora antes da do evento ${anchor.seq} (a sequência de âncoras foi cortada).`);
    } else if (stored.get(anchor.seq) !== anchor.hash) {
      problems.push(`O evento ${anchor.seq} não é mais o que foi ancorado: a trilha foi reescrita.`);
    } else {
      anchoredSeq = anchor.seq;
    }
    prevMac = anchor.mac;
  }
  return { anchoredSeq, problems };
}
