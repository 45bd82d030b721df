import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { files } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { PdfRenderer } from "../../pdf-pool/pdf-pool.js";
import type { Actor } from "../../policies/roles.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findContractForPdf } from "./find-document.js";
import { isWatermarkedDraftName } from "../../../pdf/file-name.js";
import { generateDocumentPdf } from "./generate-document-pdf.js";

export interface GetDocumentPdfOptions {
  db: Db;
  storage: FileStorage;
  renderer: PdfRenderer;
  actor: Actor;
  id: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/**
 * The document's draft PDF for download (watermarked 'RASCUNHO – sem validade'): the stored one, or a new one when none was generated yet (or
 * its bytes are gone from storage). SERVER_BUSY (503 + Retry-After) when it has to be made and
 * the PDF pool is full.
 */
export async function getDocumentPdf({
  db,
  storage,
  renderer,
  actor,
  id,
  audit,
}: GetDocumentPdfOptions): Promise<{ nome: string; bytes: Buffer }> {
  const stored = await withTenant(db, actor.tenantId, async (tx) => {
    const document = await findContractForPdf(tx, actor.tenantId, id);
    if (!document.pdf_file_id) return null;
    const [file] = await tx
      .select()
      .from(files)
      .where(and(eq(files.tenant_id, actor.tenantId), eq(files.id, document.pdf_file_id)))
      .limit(1);
    return file ?? null;
  });
  let pdf: { nome: string; bytes: Buffer } | null = null;
  // A draft stored before drafts were watermarked (its name lacks the marker) is drawn again.
  if (stored && isWatermarkedDraftName(stored.nome)) {
    const bytes = await storage.get(stored.sha256);
    if (bytes) pdf = { nome: stored.nome, bytes };
  }
  pdf ??= await generateDocumentPdf({ db, storage, renderer, actor, id, audit });
  await withTenant(db, actor.tenantId, (tx) =>
    recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "document.pdf_downloaded", entityType: "contrato", entityId: id, data: { nome: pdf.nome } },
    ),
  );
  return { nome: pdf.nome, bytes: pdf.bytes };
}
