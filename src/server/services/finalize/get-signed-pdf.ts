import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { files } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";

/**
 * The sealed PDF of a signed document for staff download, with its audit event
 * ('document.signed_pdf_downloaded'). PDF_UNAVAILABLE ('PDF não disponível') until the finalize
 * job has sealed it; NOT_FOUND for another clinic's document.
 */
export async function getSignedPdf(
  db: Db,
  storage: FileStorage,
  actor: Actor,
  id: string,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<{ nome: string; bytes: Buffer }> {
  const file = await withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id);
    const row = await findSealedPdfFile(tx, actor.tenantId, document);
    if (!row) throw new AppError("PDF_UNAVAILABLE");
    return row;
  });
  const bytes = await storage.get(file.sha256);
  if (!bytes) throw new AppError("PDF_UNAVAILABLE");
  await withTenant(db, actor.tenantId, (tx) =>
    recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.signed_pdf_downloaded",
        entityType: "contrato",
        entityId: id,
        data: { file_id: file.id, nome: file.nome },
      },
    ),
  );
  return { nome: file.nome, bytes };
}

/**
 * The file row of a document's sealed PDF, or null while the finalize job has not sealed it (also
 * used by the signer's download, src/server/services/signing/get-signer-signed-pdf.ts).
 */
export async function findSealedPdfFile(tx: Tx, tenantId: string, document: { signed_pdf_file_id: string | null }) {
  if (!document.signed_pdf_file_id) return null;
  const [row] = await tx
    .select()
    .from(files)
    .where(and(eq(files.tenant_id, tenantId), eq(files.id, document.signed_pdf_file_id)))
    .limit(1);
  return row ?? null;
}
