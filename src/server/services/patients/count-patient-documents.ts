import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratos } from "../../../db/schema.js";

/** Documents per patient for the given patients of one clinic (one grouped query, index-backed). */
export async function countPatientDocuments(
  tx: Tx,
  tenantId: string,
  patientIds: string[],
): Promise<Map<string, number>> {
  if (patientIds.length === 0) return new Map();
  const rows = await tx
    .select({ paciente_id: contratos.paciente_id, n: sql<number>`count(*)::int` })
    .from(contratos)
    .where(and(eq(contratos.tenant_id, tenantId), inArray(contratos.paciente_id, patientIds)))
    .groupBy(contratos.paciente_id);
  return new Map(rows.map((row) => [row.paciente_id, row.n]));
}
