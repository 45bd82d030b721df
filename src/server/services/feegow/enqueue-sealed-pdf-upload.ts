import type { Tx } from "../../../db/client.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { loadFeegowRow } from "./feegow-store.js";
import { queueFeegowUpload } from "./feegow-uploads-store.js";

/**
 * Called by the finalize job in the transaction that records 'document.sealed': with the
 * file_upload switch on (and a token saved), the sealed PDF's upload to Feegow is recorded and
 * its job queued in that same transaction — it exists exactly when the sealed PDF does. With the
 * switch off nothing happens ("Gerar e Enviar PDF" can send it later).
 */
export async function enqueueSealedPdfUpload(
  tx: Tx,
  tenantId: string,
  contratoId: string,
  file: { fileId: string; sha256: string },
): Promise<void> {
  const settings = await loadFeegowRow(tx, tenantId);
  if (settings?.integrations.file_upload !== true || !settings.token_encrypted) return;
  const { row, enfileirado } = await queueFeegowUpload(tx, {
    tenantId,
    contratoId,
    fileId: file.fileId,
    sha256: file.sha256,
    origem: "assinado",
    requestedBy: null,
    requeueFailed: false,
  });
  if (!enfileirado) return;
  await recordAuditEvent(
    tx,
    { tenantId, actorProfileId: null },
    {
      action: "document.feegow_upload_requested",
      entityType: "contrato",
      entityId: contratoId,
      data: { upload_id: row.id, sha256: file.sha256, origem: "assinado" },
    },
  );
}
