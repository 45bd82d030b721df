import type { Db } from "../../../db/client.js";
import { pacientes } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { Patient, PatientData } from "../../../shared/schemas/patient.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { Actor } from "../../policies/roles.js";
import { presentPatient } from "../../presenters/patient.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { assertCpfFree, cpfTaken } from "./find-patient.js";

export async function createPatient(
  db: Db,
  actor: Actor,
  input: PatientData,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<Patient> {
  try {
    return await withTenant(db, actor.tenantId, async (tx) => {
      await assertCpfFree(tx, actor.tenantId, input.cpf);
      const [row] = await tx
        .insert(pacientes)
        .values({ ...input, tenant_id: actor.tenantId, created_by: actor.profileId })
        .returning();
      if (!row) throw new Error("pacientes insert returned no row");
      await recordAuditEvent(
        tx,
        { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
        { action: "patient.created", entityType: "paciente", entityId: row.id },
      );
      return presentPatient(row);
    });
  } catch (error) {
    // Two simultaneous registrations of one CPF: the unique index decides.
    if (isUniqueViolation(error)) throw cpfTaken(undefined);
    throw error;
  }
}
