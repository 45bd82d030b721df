import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { procedimentos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findProcedureOrThrow } from "./procedure-visibility.js";

/**
 * Deletes the procedure; its links to risks, benefits and aftercare items go with it (ON DELETE
 * CASCADE), the items themselves stay. Documents keep their own copy of the procedure's name
 * (contratos.procedimento is text), so none would be affected; there are no documents yet anyway.
 */
export async function deleteProcedure(
  db: Db,
  actor: Actor,
  id: string,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<void> {
  await withTenant(db, actor.tenantId, async (tx) => {
    const row = await findProcedureOrThrow(tx, actor, id);
    await tx.delete(procedimentos).where(and(eq(procedimentos.tenant_id, actor.tenantId), eq(procedimentos.id, id)));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "procedure.deleted", entityType: "procedimento", entityId: id, data: { nome: row.nome } },
    );
  });
}
