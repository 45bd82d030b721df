import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { Patient } from "../../../shared/schemas/patient.js";
import type { Actor } from "../../policies/roles.js";
import { presentPatient } from "../../presenters/patient.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { countPatientDocuments } from "./count-patient-documents.js";
import { findPatientOrThrow } from "./find-patient.js";

/** One patient; the view is written to the audit trail (LGPD: who saw whose data). */
export async function getPatient(
  db: Db,
  actor: Actor,
  id: string,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<Patient> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const row = await findPatientOrThrow(tx, actor.tenantId, id);
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "patient.viewed", entityType: "paciente", entityId: row.id },
    );
    const documents = await countPatientDocuments(tx, actor.tenantId, [row.id]);
    return presentPatient(row, documents.get(row.id) ?? 0);
  });
}
