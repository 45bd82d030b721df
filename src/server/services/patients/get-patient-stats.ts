import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { pacientes } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { startOfMonthInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import type { PatientStats } from "../../../shared/schemas/patient.js";
import type { Actor } from "../../policies/roles.js";
import { countAllPatients } from "./count-patients.js";

/**
 * The four cards of the patients list, by the spec's rules (part 1 §9): active = total,
 * inactive = 0 (patients have no inactive state), new this month = created since the 1st,
 * 00:00 in São Paulo.
 */
export async function getPatientStats(db: Db, actor: Actor, now = new Date()): Promise<PatientStats> {
  const monthStart = startOfMonthInSaoPaulo(now);
  return withTenant(db, actor.tenantId, async (tx) => {
    const total = await countAllPatients(tx, actor.tenantId);
    const [recent] = await tx
      .select({ novos: sql<number>`count(*)::int` })
      .from(pacientes)
      .where(and(eq(pacientes.tenant_id, actor.tenantId), gte(pacientes.created_at, monthStart)));
    return { total, ativos: total, inativos: 0, novos_mes: recent?.novos ?? 0 };
  });
}
