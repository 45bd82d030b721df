import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { startOfMonthInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import type { DocumentCounters } from "../../../shared/schemas/document.js";
import type { Actor } from "../../policies/roles.js";

/** The month before the one that starts at `monthStart` (São Paulo calendar). */
function previousMonthStart(monthStart: Date): Date {
  return startOfMonthInSaoPaulo(new Date(monthStart.getTime() - 24 * 60 * 60 * 1000));
}

/**
 * The five counters of /documents and the dashboard figures, by effective status, in one pass
 * over the clinic's documents (the statuses depend on the clock, so no counter can keep them;
 * ~110 ms at 100k documents on PGlite, ~55 ms on PostgreSQL: `npm run bench -- documents-list`).
 */
export async function countDocuments(db: Db, actor: Actor, now = new Date()): Promise<DocumentCounters> {
  const thisMonth = startOfMonthInSaoPaulo(now);
  const lastMonth = previousMonthStart(thisMonth);
  const live = sql`${contratos.expiracao_at} > ${now}`;
  const [row] = await withTenant(db, actor.tenantId, (tx) =>
    tx
      .select({
        total: sql<number>`count(*)::int`,
        assinados: sql<number>`(count(*) filter (where ${contratos.status} = 'signed'))::int`,
        pendentes: sql<number>`(count(*) filter (where ${contratos.status} = 'sent' and ${live}))::int`,
        visualizados: sql<number>`(count(*) filter (where ${contratos.status} = 'viewed' and ${live}))::int`,
        expirados: sql<number>`(count(*) filter (where ${contratos.status} = 'expired' or (${contratos.status} in ('sent', 'viewed') and not ${live})))::int`,
        criados_este_mes: sql<number>`(count(*) filter (where ${contratos.created_at} >= ${thisMonth}))::int`,
        criados_mes_passado: sql<number>`(count(*) filter (where ${contratos.created_at} >= ${lastMonth} and ${contratos.created_at} < ${thisMonth}))::int`,
        assinados_este_mes: sql<number>`(count(*) filter (where ${contratos.status} = 'signed' and ${contratos.signed_at} >= ${thisMonth}))::int`,
        assinados_mes_passado: sql<number>`(count(*) filter (where ${contratos.status} = 'signed' and ${contratos.signed_at} >= ${lastMonth} and ${contratos.signed_at} < ${thisMonth}))::int`,
      })
      .from(contratos)
      .where(eq(contratos.tenant_id, actor.tenantId)),
  );
  return (
    row ?? {
      total: 0,
      assinados: 0,
      pendentes: 0,
      visualizados: 0,
      expirados: 0,
      criados_este_mes: 0,
      criados_mes_passado: 0,
      assinados_este_mes: 0,
      assinados_mes_passado: 0,
    }
  );
}
