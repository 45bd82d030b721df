import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { auditEvents, contratoPartes, contratoRevisoesPdf, contratos, files } from "../../../db/schema.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Removes a document the retention rule lets go (a draft, a cancelled or expired one, or one
 * signed more than 20 years ago — src/shared/retention) with what hangs on it: its parties (the
 * professional's declaration on a draft, witnesses who signed before a cancellation), their
 * signature images, its PDFs (the current ones and every draft PDF generated before, found through
 * their `document.pdf_generated` events). Witnesses, links, codes and clinic-system uploads go with the row
 * (ON DELETE CASCADE). Migration 0029 refuses all of it for a retained document, whoever asks.
 * The bytes stay in storage (addressed by content, perhaps shared); only the rows naming them go.
 */
export async function deleteDocumentRows(
  tx: Tx,
  tenantId: string,
  document: { id: string; pdf_file_id: string | null; signed_pdf_file_id: string | null },
): Promise<void> {
  const signatureFiles = await tx
    .select({ id: contratoPartes.assinatura_file_id })
    .from(contratoPartes)
    .where(
      and(
        eq(contratoPartes.tenant_id, tenantId),
        eq(contratoPartes.contrato_id, document.id),
        isNotNull(contratoPartes.assinatura_file_id),
      ),
    );
  // Every archive revision's file (decision 064), and the sealed one they started from.
  const revisionFiles = await tx
    .select({ id: contratoRevisoesPdf.file_id, anterior: contratoRevisoesPdf.anterior_file_id })
    .from(contratoRevisoesPdf)
    .where(and(eq(contratoRevisoesPdf.tenant_id, tenantId), eq(contratoRevisoesPdf.contrato_id, document.id)));
  await tx
    .delete(contratoPartes)
    .where(and(eq(contratoPartes.tenant_id, tenantId), eq(contratoPartes.contrato_id, document.id)));
  await tx.delete(contratos).where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, document.id)));
  const generated = await tx
    .select({ data: auditEvents.data })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tenant_id, tenantId),
        eq(auditEvents.entity_type, "contrato"),
        eq(auditEvents.entity_id, document.id),
        eq(auditEvents.action, "document.pdf_generated"),
      ),
    );
  const earlierPdfs = generated
    .map((event) => event.data.file_id)
    .filter((id): id is string => typeof id === "string" && UUID.test(id));
  const fileIds = [
    document.pdf_file_id,
    document.signed_pdf_file_id,
    ...signatureFiles.map((f) => f.id),
    ...revisionFiles.flatMap((f) => [f.id, f.anterior]),
    ...earlierPdfs,
  ].filter((id): id is string => id !== null);
  if (fileIds.length > 0)
    await tx.delete(files).where(and(eq(files.tenant_id, tenantId), inArray(files.id, [...new Set(fileIds)])));
}
