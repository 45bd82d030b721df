import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { feegowUploads } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { FeegowUpload } from "../../../shared/schemas/feegow.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { assertFeature, loadFeegowRow } from "./feegow-store.js";
import { presentFeegowUpload, requeue } from "./feegow-uploads-store.js";

export interface RetryFeegowUploadOptions {
  db: Db;
  actor: Actor;
  uploadId: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * "Tentar de novo" on a failed upload: back to 'pendente' with a fresh count of attempts and its
 * job queued. Only a failed upload (409 otherwise: a sent one is never sent twice); another
 * clinic's id is 404. The switch must be on. Audited.
 */
export async function retryFeegowUpload({
  db,
  actor,
  uploadId,
  audit,
  now = new Date(),
}: RetryFeegowUploadOptions): Promise<FeegowUpload> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const [upload] = await tx
      .select()
      .from(feegowUploads)
      .where(and(eq(feegowUploads.tenant_id, actor.tenantId), eq(feegowUploads.id, uploadId)))
      .for("update");
    if (!upload) throw new AppError("FEEGOW_UPLOAD_NOT_FOUND");
    if (upload.status !== "falhou") throw new AppError("FEEGOW_UPLOAD_NOT_FAILED");
    assertFeature(await loadFeegowRow(tx, actor.tenantId), "file_upload");
    const row = await requeue(tx, upload, now);
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.feegow_upload_retried",
        entityType: "contrato",
        entityId: upload.contrato_id,
        data: { upload_id: upload.id, sha256: upload.file_sha256, erro_anterior: upload.ultimo_erro },
      },
    );
    return presentFeegowUpload(row);
  });
}
