import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { MAX_WITNESSES, type Witness } from "../../../shared/schemas/witness.js";
import type { Actor } from "../../policies/roles.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { presentWitnesses } from "./witness-rows.js";

/** GET /api/documents/:id/witnesses: the document's witnesses and whether each has signed. */
export async function listWitnesses(db: Db, actor: Actor, id: string): Promise<{ items: Witness[]; max: number }> {
  return withTenant(db, actor.tenantId, async (tx) => {
    await findDocumentOrThrow(tx, actor.tenantId, id);
    return { items: await presentWitnesses(tx, actor.tenantId, id), max: MAX_WITNESSES };
  });
}
