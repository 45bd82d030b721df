import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { files } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { isWatermarkedDraftName } from "../../../pdf/file-name.js";
import type { FeegowUpload } from "../../../shared/schemas/feegow.js";
import { AppError } from "../../errors.js";
import { sha256Hex } from "../../lib/content-hash.js";
import type { PdfRenderer } from "../../pdf-pool/pdf-pool.js";
import type { Actor } from "../../policies/roles.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { generateDocumentPdf } from "../documents/generate-document-pdf.js";
import { assertFeature, loadFeegowRow } from "./feegow-store.js";
import { presentFeegowUpload, queueFeegowUpload } from "./feegow-uploads-store.js";

export interface RequestFeegowUploadOptions {
  db: Db;
  storage: FileStorage;
  renderer: PdfRenderer;
  actor: Actor;
  contratoId: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/**
 * "Gerar e Enviar PDF" (documents list row menu, the preview's Feegow button): queues the upload
 * of the document's current PDF — the sealed one once signed (409 while it is being made: the
 * finalize job queues it), else the stored draft, else a draft made now — as a 'feegow.upload' job. The same file is never queued twice (it answers the
 * existing upload, `enfileirado: false`); a failed one is queued again. Needs the file_upload
 * switch on and a token. Audited.
 */
export async function requestFeegowUpload({
  db,
  storage,
  renderer,
  actor,
  contratoId,
  audit,
}: RequestFeegowUploadOptions): Promise<{ upload: FeegowUpload; enfileirado: boolean }> {
  const current = await withTenant(db, actor.tenantId, async (tx) => {
    // Another clinic's id (or none) is 404 before anything about the integration is said.
    const document = await findDocumentOrThrow(tx, actor.tenantId, contratoId);
    const settings = await loadFeegowRow(tx, actor.tenantId);
    assertFeature(settings, "file_upload");
    if (!settings?.token_encrypted) throw new AppError("FEEGOW_TOKEN_MISSING");
    // A refused term unsigned in the patient's chart would read as a consent: its sealed refusal
    // record goes instead, queued by the sealing (decision 056).
    if (document.status === "recusado") throw new AppError("FEEGOW_REFUSED_DOCUMENT");
    // Signed but not sealed yet: the sealed PDF is queued for Feegow by the finalize job itself.
    if (document.status === "signed" && !document.signed_pdf_file_id) throw new AppError("FEEGOW_SIGNED_PDF_PENDING");
    const fileId = document.signed_pdf_file_id ?? document.pdf_file_id;
    if (!fileId) return null;
    const [file] = await tx
      .select({ id: files.id, sha256: files.sha256, nome: files.nome })
      .from(files)
      .where(and(eq(files.tenant_id, actor.tenantId), eq(files.id, fileId)))
      .limit(1);
    if (!file) return null;
    return { ...file, signed: fileId === document.signed_pdf_file_id };
  });

  let file: { id: string; sha256: string } | null = null;
  if (current && (current.signed || isWatermarkedDraftName(current.nome)) && (await storage.has(current.sha256)))
    file = current;
  if (!file) {
    if (current?.signed) {
      throw new AppError(
        "NOT_FOUND",
        "O PDF assinado deste documento não está no armazenamento. Fale com o suporte antes de enviar.",
      );
    }
    const made = await generateDocumentPdf({ db, storage, renderer, actor, id: contratoId, audit });
    file = { id: made.fileId, sha256: sha256Hex(made.bytes) };
  }
  const chosen = file;

  return withTenant(db, actor.tenantId, async (tx) => {
    const { row, enfileirado, reenfileirado } = await queueFeegowUpload(tx, {
      tenantId: actor.tenantId,
      contratoId,
      fileId: chosen.id,
      sha256: chosen.sha256,
      origem: "manual",
      requestedBy: actor.profileId,
      requeueFailed: true,
    });
    if (enfileirado) {
      await recordAuditEvent(
        tx,
        { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
        {
          action: reenfileirado ? "document.feegow_upload_retried" : "document.feegow_upload_requested",
          entityType: "contrato",
          entityId: contratoId,
          data: { upload_id: row.id, sha256: chosen.sha256, origem: "manual" },
        },
      );
    }
    return { upload: presentFeegowUpload(row), enfileirado };
  });
}
