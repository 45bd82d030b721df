import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratos, templateVersions } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { dateInSaoPaulo, startOfDayInSaoPaulo, startOfMonthInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import type { TemplateUsage } from "../../../shared/schemas/template.js";
import type { Actor } from "../../policies/roles.js";
import { findTemplateOrThrow } from "./find-template.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const MONTHS = 6;

/** 'YYYY-MM' of the month `offset` months from (year, month). */
function monthKey(year: number, month: number, offset: number): string {
  const index = year * 12 + (month - 1) + offset;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** The last six calendar months in São Paulo, oldest first, each with its [start, end) instants. */
export function lastSixMonths(now: Date): { mes: string; start: Date; end: Date }[] {
  const [year, month] = dateInSaoPaulo(now).split("-").map(Number) as [number, number];
  return Array.from({ length: MONTHS }, (_, i) => {
    const mes = monthKey(year, month, i - (MONTHS - 1));
    const next = monthKey(year, month, i - (MONTHS - 2));
    return { mes, start: startOfDayInSaoPaulo(`${mes}-01`), end: startOfDayInSaoPaulo(`${next}-01`) };
  });
}

/**
 * Usage of a template over the documents of ALL its versions, aggregated in SQL: totals, this
 * month (from the 1st, 00:00 in São Paulo), the last 30 days, first and last use, counts by
 * status and the last six calendar months (zeros included).
 */
export async function getTemplateUsage(db: Db, actor: Actor, id: string, now = new Date()): Promise<TemplateUsage> {
  const months = lastSixMonths(now);
  const monthStart = startOfMonthInSaoPaulo(now);
  const thirtyDaysAgo = new Date(now.getTime() - 30 * DAY_MS);
  return withTenant(db, actor.tenantId, async (tx) => {
    await findTemplateOrThrow(tx, actor, id);
    const ofTemplate = and(
      eq(contratos.tenant_id, actor.tenantId),
      eq(templateVersions.tenant_id, actor.tenantId),
      eq(templateVersions.template_id, id),
    ) as SQL;
    const versionJoin = and(
      eq(templateVersions.tenant_id, contratos.tenant_id),
      eq(templateVersions.id, contratos.template_version_id),
    );
    const perMonth = Object.fromEntries(
      months.map((m, i) => [
        `m${i}`,
        sql<number>`(count(*) filter (where ${contratos.created_at} >= ${m.start.toISOString()}::timestamptz and ${contratos.created_at} < ${m.end.toISOString()}::timestamptz))::int`,
      ]),
    ) as Record<string, SQL.Aliased<number> | SQL<number>>;
    const [totals] = await tx
      .select({
        total: sql<number>`count(*)::int`,
        este_mes: sql<number>`(count(*) filter (where ${contratos.created_at} >= ${monthStart.toISOString()}::timestamptz))::int`,
        ultimos_30_dias: sql<number>`(count(*) filter (where ${contratos.created_at} >= ${thirtyDaysAgo.toISOString()}::timestamptz))::int`,
        primeiro_uso: sql<Date | null>`min(${contratos.created_at})`.mapWith(contratos.created_at),
        ultimo_uso: sql<Date | null>`max(${contratos.created_at})`.mapWith(contratos.created_at),
        ...perMonth,
      })
      .from(contratos)
      .innerJoin(templateVersions, versionJoin)
      .where(ofTemplate);
    const byStatus = await tx
      .select({ status: contratos.status, total: sql<number>`count(*)::int` })
      .from(contratos)
      .innerJoin(templateVersions, versionJoin)
      .where(ofTemplate)
      .groupBy(contratos.status)
      .orderBy(contratos.status);
    const row = (totals ?? {}) as Record<string, unknown>;
    const asDate = (value: unknown) => (value instanceof Date ? value.toISOString() : null);
    return {
      total: Number(row.total ?? 0),
      este_mes: Number(row.este_mes ?? 0),
      ultimos_30_dias: Number(row.ultimos_30_dias ?? 0),
      primeiro_uso: asDate(row.primeiro_uso),
      ultimo_uso: asDate(row.ultimo_uso),
      por_status: byStatus.map((s) => ({ status: s.status, total: s.total })),
      por_mes: months.map((m, i) => ({ mes: m.mes, total: Number(row[`m${i}`] ?? 0) })),
    };
  });
}
