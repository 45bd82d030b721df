import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { feegowUploads } from "../../../db/schema.js";
import type { FeegowUpload, FeegowUploadOrigin } from "../../../shared/schemas/feegow.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";

export type FeegowUploadRow = typeof feegowUploads.$inferSelect;

/** Calls to Feegow per upload before it is 'falhou' (each retry waits longer: 10 s × 4ⁿ). */
export const FEEGOW_UPLOAD_MAX_ATTEMPTS = 5;
/** Base64 makes a file a third larger; past this a PDF is not sent (it stays in our storage). */
export const FEEGOW_UPLOAD_MAX_BYTES = 15 * 1024 * 1024;

/** One upload per document and file, ever (unique index): "<contrato id>:<PDF SHA-256>". */
export function uploadIdempotencyKey(contratoId: string, sha256: string): string {
  return `${contratoId}:${sha256}`;
}

export function presentFeegowUpload(row: FeegowUploadRow): FeegowUpload {
  return {
    id: row.id,
    contrato_id: row.contrato_id,
    status: row.status,
    origem: row.origem,
    file_sha256: row.file_sha256,
    tentativas: row.tentativas,
    ultimo_erro: row.ultimo_erro,
    possivel_duplicata: row.possivel_duplicata,
    enviado_at: row.enviado_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The 'feegow.upload' job of an upload (one open job per upload: dedupe key). */
export async function enqueueUploadJob(tx: DbOrTx, tenantId: string, uploadId: string): Promise<void> {
  await enqueueJob(tx, {
    kind: "feegow.upload",
    payload: { uploadId },
    tenantId,
    dedupeKey: `feegow.upload:${uploadId}`,
    // The upload counts its own attempts (tentativas) and stops at FEEGOW_UPLOAD_MAX_ATTEMPTS;
    // the job's limit is only a safety net above it.
    maxAttempts: FEEGOW_UPLOAD_MAX_ATTEMPTS + 2,
  });
}

/**
 * Records an upload of this document's file and queues its job, inside the caller's transaction.
 * The same file of the same document is never queued twice: an existing row is answered as it
 * is — except one that failed, which `requeueFailed` puts back in the queue ("Tentar de novo").
 */
export async function queueFeegowUpload(
  tx: DbOrTx,
  input: {
    tenantId: string;
    contratoId: string;
    fileId: string;
    sha256: string;
    origem: FeegowUploadOrigin;
    requestedBy: string | null;
    requeueFailed: boolean;
    now?: Date;
  },
): Promise<{ row: FeegowUploadRow; enfileirado: boolean; reenfileirado: boolean }> {
  const now = input.now ?? new Date();
  const key = uploadIdempotencyKey(input.contratoId, input.sha256);
  const [inserted] = await tx
    .insert(feegowUploads)
    .values({
      tenant_id: input.tenantId,
      contrato_id: input.contratoId,
      file_id: input.fileId,
      file_sha256: input.sha256,
      idempotency_key: key,
      origem: input.origem,
      requested_by: input.requestedBy,
      created_at: now,
      updated_at: now,
    })
    .onConflictDoNothing({ target: feegowUploads.idempotency_key })
    .returning();
  if (inserted) {
    await enqueueUploadJob(tx, input.tenantId, inserted.id);
    return { row: inserted, enfileirado: true, reenfileirado: false };
  }
  const [existing] = await tx
    .select()
    .from(feegowUploads)
    .where(and(eq(feegowUploads.tenant_id, input.tenantId), eq(feegowUploads.idempotency_key, key)))
    .for("update");
  if (!existing) throw new Error("feegow upload conflict without a visible row");
  if (existing.status !== "falhou" || !input.requeueFailed)
    return { row: existing, enfileirado: false, reenfileirado: false };
  return { row: await requeue(tx, existing, now), enfileirado: true, reenfileirado: true };
}

/** A failed upload back to 'pendente' with a fresh count of attempts, and its job queued. */
export async function requeue(tx: DbOrTx, row: FeegowUploadRow, now: Date): Promise<FeegowUploadRow> {
  const [updated] = await tx
    .update(feegowUploads)
    .set({ status: "pendente", tentativas: 0, ultimo_erro: null, motivo: null, updated_at: now })
    .where(and(eq(feegowUploads.tenant_id, row.tenant_id), eq(feegowUploads.id, row.id)))
    .returning();
  if (!updated) throw new Error("feegow upload vanished while requeued");
  await enqueueUploadJob(tx, row.tenant_id, row.id);
  return updated;
}
