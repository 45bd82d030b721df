import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratos, files, profiles, tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { DocumentModel } from "../../../shared/document-model/build-document-model.js";
import { DRAFT_WATERMARK } from "../../../pdf/document-pdf.js";
import { draftPdfFileName } from "../../../pdf/file-name.js";
import { loadPdfLogo } from "../settings/logo/load-clinic-logo.js";
import { pdfClinic, pdfPhysician } from "../../presenters/pdf-parties.js";
import { AppError } from "../../errors.js";
import type { PdfRenderer } from "../../pdf-pool/pdf-pool.js";
import type { Actor } from "../../policies/roles.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findContractForPdf } from "./find-document.js";
import { asBulkDatabaseWork } from "../../../db/database-priority.js";

/**
 * Draws the document's frozen model as the DRAFT PDF (src/pdf; watermarked 'RASCUNHO – sem
 * validade' on every page, named …-rascunho_…), stores it through the storage driver
 * (never as a data URL in the row) and links it to the document. Reading happens in one short
 * transaction, rendering outside any transaction (in the PDF worker pool, decision 012), linking
 * in another. A full pool answers SERVER_BUSY (503 + Retry-After); nothing was written then.
 * Its database calls are bulk work: on PGlite they let interactive calls go first (decision 038).
 */
export function generateDocumentPdf(options: GenerateDocumentPdfOptions): ReturnType<typeof drawAndStoreDraftPdf> {
  return asBulkDatabaseWork(() => drawAndStoreDraftPdf(options));
}

export interface GenerateDocumentPdfOptions {
  db: Db;
  storage: FileStorage;
  renderer: PdfRenderer;
  actor: Actor;
  id: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

async function drawAndStoreDraftPdf({
  db,
  storage,
  renderer,
  actor,
  id,
  audit,
  now = new Date(),
}: GenerateDocumentPdfOptions): Promise<{ fileId: string; nome: string; bytes: Buffer }> {
  const { document, clinic, physician, logo } = await withTenant(db, actor.tenantId, async (tx) => {
    const document = await findContractForPdf(tx, actor.tenantId, id);
    const [clinic] = await tx.select().from(tenants).where(eq(tenants.id, actor.tenantId)).limit(1);
    const [physician] = document.medico_responsavel_id
      ? await tx
          .select()
          .from(profiles)
          .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, document.medico_responsavel_id)))
          .limit(1)
      : [];
    return { document, clinic, physician, logo: await loadPdfLogo(tx, actor.tenantId) };
  });
  if (!clinic) throw new AppError("NOT_FOUND");
  // Spec part 1 §5: a frozen model the PDF cannot be drawn from is 'Erro ao processar template do documento'.
  if (!isDrawableModel(document.documento)) throw new AppError("PDF_TEMPLATE_INVALID");

  let bytes: Buffer;
  try {
    bytes = await renderer.render({
      model: document.documento as unknown as DocumentModel,
      documentId: document.id,
      contentSha256: document.conteudo_sha256,
      createdAt: document.created_at,
      clinic: { ...pdfClinic(clinic), logo },
      physician: pdfPhysician(physician),
      // The draft is never the signed document: every page says so.
      watermark: DRAFT_WATERMARK,
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("PDF_FAILED", undefined, {
      details: { reason: error instanceof Error ? error.message : String(error) },
    });
  }
  const stored = await storage.put(bytes);
  const nome = draftPdfFileName(document.titulo, now);
  const fileId = await withTenant(db, actor.tenantId, async (tx) => {
    const [file] = await tx
      .insert(files)
      .values({
        tenant_id: actor.tenantId,
        sha256: stored.sha256,
        size: stored.size,
        content_type: "application/pdf",
        nome,
        created_by: actor.profileId,
      })
      .returning({ id: files.id });
    if (!file) throw new Error("files insert returned no row");
    await tx
      .update(contratos)
      .set({ pdf_file_id: file.id })
      .where(and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.id, id)));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.pdf_generated",
        entityType: "contrato",
        entityId: id,
        data: { file_id: file.id, sha256: stored.sha256, size: stored.size },
      },
    );
    return file.id;
  });
  return { fileId, nome, bytes };
}

function isDrawableModel(value: unknown): boolean {
  if (!value || typeof value !== "object") return false;
  const model = value as Partial<DocumentModel>;
  return typeof model.title === "string" && Array.isArray(model.sections) && Array.isArray(model.introduction);
}
