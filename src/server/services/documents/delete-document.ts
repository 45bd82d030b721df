import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratos, files } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "./find-document.js";

/**
 * Deletes a draft (nobody received it). Sent or viewed documents are cancelled instead, and signed
 * ones can never be deleted or changed. The audit event outlives the row.
 */
export async function deleteDocument(db: Db, actor: Actor, id: string, audit: Omit<AuditContext, "tenantId" | "actorProfileId">): Promise<void> {
  await withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id, true);
    if (document.status === "signed") throw new AppError("DOCUMENT_LOCKED");
    if (document.status !== "draft") throw new AppError("DOCUMENT_NOT_DELETABLE");
    await tx.delete(contratos).where(and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.id, id)));
    if (document.pdf_file_id) await tx.delete(files).where(and(eq(files.tenant_id, actor.tenantId), eq(files.id, document.pdf_file_id)));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "document.deleted", entityType: "contrato", entityId: id, data: { titulo: document.titulo, paciente_id: document.paciente_id } },
    );
  });
}
