import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { SignatureSummary } from "../../../shared/schemas/signing.js";
import type { Actor } from "../../policies/roles.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { presentSignatures, selectSignatures } from "./load-signatures.js";

/** Staff: the document's Signatures block with every piece of evidence (empty while unsigned). */
export async function listSignatures(
  db: Db,
  storage: FileStorage,
  actor: Actor,
  id: string,
): Promise<SignatureSummary[]> {
  const rows = await withTenant(db, actor.tenantId, async (tx) => {
    await findDocumentOrThrow(tx, actor.tenantId, id);
    return selectSignatures(tx, actor.tenantId, id);
  });
  return presentSignatures(rows, storage, "staff");
}
