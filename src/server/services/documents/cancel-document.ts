import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "./find-document.js";

/** An expired document is cancelled too ("Reenvie ou cancele", the list's warning card). */
const CANCELLABLE = new Set(["draft", "sent", "viewed", "expired"]);

export interface CancelDocumentOptions {
  db: Db;
  actor: Actor;
  id: string;
  motivo: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/** draft/sent/viewed/expired → cancelled with a reason (DESIGN §2), one transaction with its audit event. */
export async function cancelDocument({
  db,
  actor,
  id,
  motivo,
  audit,
  now = new Date(),
}: CancelDocumentOptions): Promise<void> {
  await withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id, true);
    if (document.status === "signed") throw new AppError("DOCUMENT_LOCKED");
    if (!CANCELLABLE.has(document.status)) throw new AppError("DOCUMENT_NOT_CANCELLABLE");
    await tx
      .update(contratos)
      .set({ status: "cancelled", cancel_reason: motivo, cancelled_at: now, updated_at: now })
      .where(and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.id, id)));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.cancelled",
        entityType: "contrato",
        entityId: id,
        data: { motivo, status_anterior: document.status },
      },
    );
  });
}
