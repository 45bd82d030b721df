import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratoTestemunhas } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { findWitness } from "./witness-rows.js";

export interface RemoveWitnessOptions {
  db: Db;
  actor: Actor;
  id: string;
  witnessId: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/** DELETE /api/documents/:id/witnesses/:witnessId: only while the document is a draft (no link exists yet). */
export async function removeWitness({ db, actor, id, witnessId, audit }: RemoveWitnessOptions): Promise<void> {
  await withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id, true);
    const witness = await findWitness(tx, actor.tenantId, id, witnessId);
    if (!witness) throw new AppError("NOT_FOUND", "Testemunha não encontrada");
    if (document.status !== "draft") throw new AppError("WITNESS_NOT_EDITABLE");
    await tx
      .delete(contratoTestemunhas)
      .where(and(eq(contratoTestemunhas.tenant_id, actor.tenantId), eq(contratoTestemunhas.id, witness.id)));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.witness_removed",
        entityType: "contrato",
        entityId: id,
        data: { testemunha_id: witness.id, ordem: witness.ordem, nome: witness.nome },
      },
    );
  });
}
