import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { matchProcedures } from "../../../shared/feegow/match-procedures.js";
import type { FeegowProcedureList } from "../../../shared/schemas/feegow.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import { assertFeature, clientFor, type FeegowConnection, feegowAppError, loadFeegowRow } from "./feegow-store.js";
import { ourProcedures, presentProcedureMatch } from "./feegow-procedures.js";

/**
 * The /integration procedures section: Feegow's procedures (GET /procedures/list, valor in
 * centavos) beside ours — new, imported, or with a price or link to update. Needs the procedures
 * switch on. No transaction stays open while Feegow answers.
 */
export async function listFeegowProcedures(
  db: Db,
  secretBox: SecretBox,
  connection: FeegowConnection,
  actor: Actor,
): Promise<FeegowProcedureList> {
  const row = await withTenant(db, actor.tenantId, (tx) => loadFeegowRow(tx, actor.tenantId));
  assertFeature(row, "procedures");
  const client = clientFor(row, secretBox, connection);
  const feegow = await client.listProcedures().catch((error: unknown) => {
    throw feegowAppError(error);
  });
  const ours = await withTenant(db, actor.tenantId, (tx) => ourProcedures(tx, actor.tenantId));
  return { items: matchProcedures(feegow, ours).map(presentProcedureMatch) };
}
