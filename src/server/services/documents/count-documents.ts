import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { rawRows } from "../../../db/raw.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { monthInSaoPaulo, startOfMonthInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import type { DocumentCounters } from "../../../shared/schemas/document.js";
import type { Actor } from "../../policies/roles.js";
import { awaitingProfessional } from "./document-filters.js";

/** The month before the one that starts at `monthStart` (São Paulo calendar). */
function previousMonthStart(monthStart: Date): Date {
  return startOfMonthInSaoPaulo(new Date(monthStart.getTime() - 24 * 60 * 60 * 1000));
}

/**
 * The five counters of /documents and the dashboard figures (p95 ≤ 15 ms at 100k
 * documents). The stored statuses and the monthly figures come from document_counters, kept by
 * triggers (migration 0034); what depends on the clock — sent or viewed documents already past
 * their deadline, which the expiry sweep has not marked yet — is counted from the
 * (tenant_id, status, expiracao_at) index, a handful of rows at most; so are those waiting for the
 * responsible professional (decision 050: the live sent and viewed ones, with the parties' index).
 */
export async function countDocuments(db: Db, actor: Actor, now = new Date()): Promise<DocumentCounters> {
  const thisMonth = startOfMonthInSaoPaulo(now);
  const lastMonth = previousMonthStart(thisMonth);
  const [current, previous] = [monthInSaoPaulo(thisMonth), monthInSaoPaulo(lastMonth)];
  // One statement (one round trip inside the tenant transaction): the buckets, then the clock's
  // share as two more rows.
  const rows = await withTenant(db, actor.tenantId, (tx) =>
    rawRows<{ bucket: string; n: number }>(
      tx,
      sql`select bucket, sum(n)::int as n from document_counters
           where tenant_id = ${actor.tenantId}
             and (bucket like 'status:%' or bucket in (${`criados:${current}`}, ${`criados:${previous}`}, ${`assinados:${current}`}, ${`assinados:${previous}`}))
           group by bucket
          union all
          select 'stale:' || status, count(*)::int
            from contratos
           where tenant_id = ${actor.tenantId} and status in ('sent', 'viewed') and expiracao_at <= ${now}
           group by status
          union all
          select case when medico_responsavel_id = ${actor.profileId}::uuid then 'profissional:meu' else 'profissional:outro' end, count(*)::int
            from contratos
           where tenant_id = ${actor.tenantId} and ${awaitingProfessional(now)}
           group by 1
          union all
          select 'revogados', count(*)::int
            from contratos
           where tenant_id = ${actor.tenantId} and revogado_at is not null`,
    ),
  );
  const buckets = rows.filter(
    (row) => !row.bucket.startsWith("stale:") && !row.bucket.startsWith("profissional:") && row.bucket !== "revogados",
  );
  const mine = rows.find((row) => row.bucket === "profissional:meu")?.n ?? 0;
  const others = rows.find((row) => row.bucket === "profissional:outro")?.n ?? 0;
  const staleCount = (status: string) => rows.find((row) => row.bucket === `stale:${status}`)?.n ?? 0;
  const stale = { sent: staleCount("sent"), viewed: staleCount("viewed") };
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
    // Decision 050: the live sent or viewed ones the responsible professional has not signed.
    aguardando_profissional: mine + others,
    aguardando_minha_assinatura: mine,
    // Decision 056: refused ones are a stored status; revoked ones stay signed (few rows, by tenant).
    recusados: count("status:recusado"),
    revogados: rows.find((row) => row.bucket === "revogados")?.n ?? 0,
  };
}
