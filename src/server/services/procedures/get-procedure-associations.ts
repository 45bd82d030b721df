import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { ProcedureAssociations } from "../../../shared/schemas/procedure.js";
import type { Actor } from "../../policies/roles.js";
import { linkedIds } from "./procedure-links.js";
import { findProcedureOrThrow } from "./procedure-visibility.js";

/** The ids of the risks, benefits and aftercare items linked to a visible procedure. */
export async function getProcedureAssociations(db: Db, actor: Actor, id: string): Promise<ProcedureAssociations> {
  return withTenant(db, actor.tenantId, async (tx) => {
    await findProcedureOrThrow(tx, actor, id);
    return {
      riscos: await linkedIds(tx, "riscos", actor.tenantId, id),
      beneficios: await linkedIds(tx, "beneficios", actor.tenantId, id),
      cuidados: await linkedIds(tx, "cuidados", actor.tenantId, id),
    };
  });
}
