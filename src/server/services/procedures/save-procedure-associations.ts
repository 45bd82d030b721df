import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { ProcedureAssociations } from "../../../shared/schemas/procedure.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { countOwnItems, KINDS, linkedIds, replaceLinks } from "./procedure-links.js";
import { findProcedureOrThrow } from "./procedure-visibility.js";

export interface SaveProcedureAssociationsOptions {
  db: Db;
  actor: Actor;
  id: string;
  input: ProcedureAssociations;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/**
 * Replaces all the procedure's links in one transaction. Every id must be an item of that kind
 * of the same clinic; otherwise nothing changes and the answer is 400 ASSOCIATION_ITEM_UNKNOWN.
 */
export async function saveProcedureAssociations({
  db,
  actor,
  id,
  input,
  audit,
}: SaveProcedureAssociationsOptions): Promise<ProcedureAssociations> {
  return withTenant(db, actor.tenantId, async (tx) => {
    await findProcedureOrThrow(tx, actor, id);
    for (const kind of KINDS) {
      if ((await countOwnItems(tx, kind, actor.tenantId, input[kind])) !== input[kind].length) {
        throw new AppError("ASSOCIATION_ITEM_UNKNOWN", undefined, { details: { kind } });
      }
    }
    for (const kind of KINDS)
      await replaceLinks({ tx, kind, tenantId: actor.tenantId, procedureId: id, ids: input[kind] });
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "procedure.associations_saved",
        entityType: "procedimento",
        entityId: id,
        data: { riscos: input.riscos.length, beneficios: input.beneficios.length, cuidados: input.cuidados.length },
      },
    );
    return {
      riscos: await linkedIds(tx, "riscos", actor.tenantId, id),
      beneficios: await linkedIds(tx, "beneficios", actor.tenantId, id),
      cuidados: await linkedIds(tx, "cuidados", actor.tenantId, id),
    };
  });
}
