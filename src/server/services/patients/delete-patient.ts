import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { pacientes } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { AppError } from "../../errors.js";
import { countPatientDocuments } from "./count-patient-documents.js";
import { findPatientOrThrow } from "./find-patient.js";

export async function deletePatient(
  db: Db,
  actor: Actor,
  id: string,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<void> {
  await withTenant(db, actor.tenantId, async (tx) => {
    const row = await findPatientOrThrow(tx, actor.tenantId, id);
    // Documents keep their patient (signed evidence must stay whole): such a patient stays.
    const documents = (await countPatientDocuments(tx, actor.tenantId, [id])).get(id) ?? 0;
    if (documents > 0) {
      throw new AppError(
        "PATIENT_HAS_DOCUMENTS",
        `Este paciente possui ${documents} documento(s) e não pode ser excluído.`,
        { details: { count: documents } },
      );
    }
    await tx.delete(pacientes).where(and(eq(pacientes.tenant_id, actor.tenantId), eq(pacientes.id, id)));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "patient.deleted", entityType: "paciente", entityId: id, data: { nome: row.nome } },
    );
  });
}
