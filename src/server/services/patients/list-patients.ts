import { desc, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../../db/client.js";
import { pacientes } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { PatientList, patientListQuerySchema } from "../../../shared/schemas/patient.js";
import { decodeCursor, encodeCursor } from "../../lib/cursor.js";
import type { Actor } from "../../policies/roles.js";
import { presentPatient } from "../../presenters/patient.js";
import { allOf, patientConditions } from "./patient-filters.js";

/** One page of the clinic's patients, newest first, searched and filtered on the server. */
export async function listPatients(
  db: Db,
  actor: Actor,
  query: z.output<typeof patientListQuerySchema>,
  now = new Date(),
): Promise<PatientList> {
  const conditions = patientConditions(actor.tenantId, query, now);
  const pageConditions: SQL[] = [...conditions];
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor);
    pageConditions.push(sql`(${pacientes.created_at}, ${pacientes.id}) < (${cursor.createdAt}, ${cursor.id})`);
  }
  return withTenant(db, actor.tenantId, async (tx) => {
    const rows = await tx
      .select()
      .from(pacientes)
      .where(allOf(pageConditions))
      .orderBy(desc(pacientes.created_at), desc(pacientes.id))
      .limit(query.limit + 1);
    const [{ total } = { total: 0 }] = await tx
      .select({ total: sql<number>`count(*)::int` })
      .from(pacientes)
      .where(allOf(conditions));
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      items: page.map((row) => presentPatient(row)),
      total,
      next_cursor: rows.length > query.limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
    };
  });
}
