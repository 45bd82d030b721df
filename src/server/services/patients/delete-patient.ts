import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { pacientes } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findPatientOrThrow } from "./find-patient.js";

export async function deletePatient(
  db: Db,
  actor: Actor,
  id: string,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<void> {
  await withTenant(db, actor.tenantId, async (tx) => {
    const row = await findPatientOrThrow(tx, actor.tenantId, id);
    await tx.delete(pacientes).where(and(eq(pacientes.tenant_id, actor.tenantId), eq(pacientes.id, id)));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "patient.deleted", entityType: "paciente", entityId: id, data: { nome: row.nome } },
    );
  });
}
