import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { Procedure } from "../../../shared/schemas/procedure.js";
import type { Actor } from "../../policies/roles.js";
import { presentProcedure } from "../../presenters/procedure.js";
import { findProcedureOrThrow } from "./procedure-visibility.js";

export async function getProcedure(db: Db, actor: Actor, id: string): Promise<Procedure> {
  return withTenant(db, actor.tenantId, async (tx) => presentProcedure(await findProcedureOrThrow(tx, actor, id)));
}
