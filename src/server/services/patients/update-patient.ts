import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { pacientes } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { Patient, PatientData } from "../../../shared/schemas/patient.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { Actor } from "../../policies/roles.js";
import { presentPatient } from "../../presenters/patient.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { recordWaitingContactChanges } from "./contact-changes.js";
import { assertCpfFree, cpfTaken, findPatientOrThrow } from "./find-patient.js";

const EDITABLE = [
  "nome",
  "cpf",
  "data_nascimento",
  "sexo",
  "telefone",
  "email",
  "cep",
  "logradouro",
  "numero",
  "complemento",
  "bairro",
  "cidade",
  "uf",
  "responsavel_nome",
  "responsavel_cpf",
  "responsavel_email",
  "responsavel_telefone",
] as const;

export interface UpdatePatientOptions {
  db: Db;
  actor: Actor;
  id: string;
  input: PatientData;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/** Replaces the patient's data with the form's (a field left blank becomes empty). */
export async function updatePatient({ db, actor, id, input, audit }: UpdatePatientOptions): Promise<Patient> {
  try {
    return await withTenant(db, actor.tenantId, async (tx) => {
      const before = await findPatientOrThrow(tx, actor.tenantId, id);
      await assertCpfFree(tx, actor.tenantId, input.cpf, id);
      const values = Object.fromEntries(EDITABLE.map((key) => [key, input[key] ?? null]));
      const [row] = await tx
        .update(pacientes)
        .set({
          ...values,
          nome: input.nome,
          // Absent: kept (the edit form does not carry it); present: the form was filled from Feegow again.
          ...(input.feegow_patient_id !== undefined ? { feegow_patient_id: input.feegow_patient_id } : {}),
          updated_at: new Date(),
        })
        .where(and(eq(pacientes.tenant_id, actor.tenantId), eq(pacientes.id, id)))
        .returning();
      if (!row) throw new Error("pacientes update returned no row");
      const changed = EDITABLE.filter((key) => (before[key] ?? null) !== (row[key] ?? null));
      const context = { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit };
      await recordAuditEvent(tx, context, {
        action: "patient.updated",
        entityType: "paciente",
        entityId: id,
        data: { campos: changed },
      });
      await recordWaitingContactChanges(tx, context, { patientId: id, before, after: row, changed });
      return presentPatient(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw cpfTaken(undefined);
    throw error;
  }
}
