import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { rawRows } from "../../../db/raw.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { CLINIC_TIME_ZONE, startOfMonthInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import type { DocumentCounters } from "../../../shared/schemas/document.js";
import type { Actor } from "../../policies/roles.js";

/** The month before the one that starts at `monthStart` (São Paulo calendar). */
function previousMonthStart(monthStart: Date): Date {
  return startOfMonthInSaoPaulo(new Date(monthStart.getTime() - 24 * 60 * 60 * 1000));
}

/** "YYYY-MM" of a month start, in São Paulo: the bucket names the triggers write. */
function monthKey(monthStart: Date): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: CLINIC_TIME_ZONE, year: "numeric", month: "2-digit" }).formatToParts(monthStart);
  return `${parts.find((p) => p.type === "year")?.value}-${parts.find((p) => p.type === "month")?.value}`;
}

/**
 * The five counters of /documents and the dashboard figures (issue 16: p95 ≤ 15 ms at 100k
 * documents). The stored statuses and the monthly figures come from document_counters, kept by
 * triggers (migration 0034); what depends on the clock — sent or viewed documents already past
 * their deadline, which the expiry sweep has not marked yet — is counted from the
 * (tenant_id, status, expiracao_at) index, a handful of rows at most.
 */
export async function countDocuments(db: Db, actor: Actor, now = new Date()): Promise<DocumentCounters> {
  const thisMonth = startOfMonthInSaoPaulo(now);
  const lastMonth = previousMonthStart(thisMonth);
  const [current, previous] = [monthKey(thisMonth), monthKey(lastMonth)];
  const { buckets, stale } = await withTenant(db, actor.tenantId, async (tx) => {
    const buckets = await rawRows<{ bucket: string; n: number }>(
      tx,
      sql`select bucket, sum(n)::int as n from document_counters
           where tenant_id = ${actor.tenantId}
             and (bucket like 'status:%' or bucket in (${`criados:${current}`}, ${`criados:${previous}`}, ${`assinados:${current}`}, ${`assinados:${previous}`}))
           group by bucket`,
    );
    const [stale] = await rawRows<{ sent: number; viewed: number }>(
      tx,
      sql`select (count(*) filter (where status = 'sent'))::int as sent, (count(*) filter (where status = 'viewed'))::int as viewed
            from contratos
           where tenant_id = ${actor.tenantId} and status in ('sent', 'viewed') and expiracao_at <= ${now}`,
    );
    return { buckets, stale: stale ?? { sent: 0, viewed: 0 } };
  });
  const count = (bucket: string) => buckets.find((b) => b.bucket === bucket)?.n ?? 0;
  const total = buckets.filter((b) => b.bucket.startsWith("status:")).reduce((sum, b) => sum + b.n, 0);
  return {
    total,
    assinados: count("status:signed"),
    pendentes: count("status:sent") - stale.sent,
    visualizados: count("status:viewed") - stale.viewed,
    expirados: count("status:expired") + stale.sent + stale.viewed,
    criados_este_mes: count(`criados:${current}`),
    criados_mes_passado: count(`criados:${previous}`),
    assinados_este_mes: count(`assinados:${current}`),
    assinados_mes_passado: count(`assinados:${previous}`),
  };
}
