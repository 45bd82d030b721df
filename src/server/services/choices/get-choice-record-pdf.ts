import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratoRegistros, files } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";

export interface GetChoiceRecordPdfOptions {
  db: Db;
  storage: FileStorage;
  actor: Actor;
  ids: { documentId: string; recordId: string };
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/**
 * The sealed "Registro de recusa/revogação" of a document (decision 056) for staff download, with
 * its audit event. NOT_FOUND for another clinic's document or a record of another document;
 * PDF_UNAVAILABLE while the record job has not sealed it.
 */
export async function getChoiceRecordPdf({
  db,
  storage,
  actor,
  ids,
  audit,
}: GetChoiceRecordPdfOptions): Promise<{ nome: string; bytes: Buffer }> {
  const file = await withTenant(db, actor.tenantId, async (tx) => {
    await findDocumentOrThrow(tx, actor.tenantId, ids.documentId);
    const [row] = await tx
      .select({ id: files.id, sha256: files.sha256, nome: files.nome, tipo: contratoRegistros.tipo })
      .from(contratoRegistros)
      .leftJoin(
        files,
        and(eq(files.tenant_id, contratoRegistros.tenant_id), eq(files.id, contratoRegistros.pdf_file_id)),
      )
      .where(
        and(
          eq(contratoRegistros.tenant_id, actor.tenantId),
          eq(contratoRegistros.contrato_id, ids.documentId),
          eq(contratoRegistros.id, ids.recordId),
        ),
      )
      .limit(1);
    if (!row) throw new AppError("CHOICE_RECORD_NOT_FOUND");
    if (!row.id || !row.sha256 || !row.nome) throw new AppError("PDF_UNAVAILABLE");
    return { id: row.id, sha256: row.sha256, nome: row.nome, tipo: row.tipo };
  });
  const bytes = await storage.get(file.sha256);
  if (!bytes) throw new AppError("PDF_UNAVAILABLE");
  await withTenant(db, actor.tenantId, (tx) =>
    recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.choice_record_downloaded",
        entityType: "contrato",
        entityId: ids.documentId,
        data: { registro_id: ids.recordId, tipo: file.tipo, file_id: file.id },
      },
    ),
  );
  return { nome: file.nome, bytes };
}
