import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { documentDeletion, RETENTION_MESSAGES } from "../../../shared/retention/retention-rule.js";
import { effectiveStatus } from "../../../shared/schemas/document.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { deleteDocumentRows } from "../data-rights/delete-document-rows.js";
import { findDocumentOrThrow } from "./find-document.js";

export interface DeleteDocumentOptions {
  db: Db;
  actor: Actor;
  id: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * Deletes a document nobody signed (draft, cancelled, expired). Sent or viewed documents are
 * cancelled first; signed ones are kept for 20 years (Lei 13.787/2018, src/shared/retention —
 * the database refuses it too, migration 0029). The audit event outlives the row.
 */
export async function deleteDocument({ db, actor, id, audit, now = new Date() }: DeleteDocumentOptions): Promise<void> {
  await withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id, true);
    // A sent document past its expiry is expired for everyone, before the sweep writes it.
    const verdict = documentDeletion(
      { status: effectiveStatus(document.status, document.expiracao_at, now), signed_at: document.signed_at },
      now,
    );
    if (!verdict.allowed && verdict.reason === "retained") {
      throw new AppError("DOCUMENT_RETAINED", RETENTION_MESSAGES.documentRetained(verdict.until), {
        details: { guardar_ate: verdict.until?.toISOString() ?? null },
      });
    }
    if (!verdict.allowed) throw new AppError("DOCUMENT_NOT_DELETABLE");
    await deleteDocumentRows(tx, actor.tenantId, document);
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.deleted",
        entityType: "contrato",
        entityId: id,
        data: { titulo: document.titulo, paciente_id: document.paciente_id, status: document.status },
      },
    );
  });
}
