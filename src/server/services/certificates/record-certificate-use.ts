import type { DbOrTx } from "../../../db/client.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";

/**
 * Records that a certificate signed something (decision 019), in the caller's transaction — for
 * the finalize job once the clinic's or the professional's A1 signs the final PDF. The event is
 * the certificate's ('certificado'); the document it signed is in its data (and the document's
 * own 'document.sealed' event should name the certificate's fingerprint).
 */
export async function recordCertificateUse(
  tx: DbOrTx,
  use: {
    tenantId: string;
    certificateId: string;
    fingerprintSha256: string;
    /** What was signed, e.g. { contrato_id } of the final PDF. */
    documentId: string;
    /** Why: the clinic's seal or the professional's own signature. */
    purpose: "selo_clinica" | "assinatura_profissional";
    actorProfileId?: string | null;
  },
): Promise<void> {
  await recordAuditEvent(
    tx,
    { tenantId: use.tenantId, actorProfileId: use.actorProfileId ?? null },
    {
      action: "certificate.used",
      entityType: "certificado",
      entityId: use.certificateId,
      data: { contrato_id: use.documentId, finalidade: use.purpose, fingerprint_sha256: use.fingerprintSha256 },
    },
  );
}
