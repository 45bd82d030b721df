import type { Db } from "../../../db/client.js";
import type { files } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { AppError } from "../../errors.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { findSealedPdfFile } from "../finalize/get-signed-pdf.js";
import { signingState } from "./signing-state.js";
import { findSigningTokenOrThrow } from "./signing-tokens.js";

type FileRow = typeof files.$inferSelect;

/**
 * The sealed PDF's file row for the document behind a signing link ("Baixar documento
 * assinado" on the signing page). SIGNING_LINK_INVALID (410) exactly when the page itself would
 * answer 410; SIGNED_PDF_NOT_SIGNED (404) while the link is still waiting for the signature;
 * SIGNED_PDF_PREPARING (404) between the signature and the end of the finalize job.
 *
 * WHO CAN DOWNLOAD: whoever holds the link, for as long as the link opens the signed page: by
 * signingState(), SIGNED_LINK_DAYS (30) after the document was signed, unless revoked (decision
 * 021). The link travels by e-mail and WhatsApp and may be forwarded; the sealed PDF it yields
 * carries more than the public page shows (the page masks the signer's CPF and e-mail and omits
 * phone, IP and user agent; the PDF's Signatures block and "Registro de assinaturas" carry them
 * whole, as evidence must) — hence the window. Every download is audited with IP and user agent
 * so the clinic can see who fetched it. After the window, /verificar (by the code printed on the
 * copy) checks a copy the holder already has; it never hands one out.
 */
async function signedPdfFileOf(
  db: Db,
  token: string,
  now: Date,
): Promise<{ tenantId: string; documentId: string; file: FileRow }> {
  const link = await findSigningTokenOrThrow(db, token);
  return withTenant(db, link.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, link.tenantId, link.contratoId).catch(() => {
      throw new AppError("SIGNING_LINK_INVALID");
    });
    const estado = signingState(link, document, now);
    if (estado === "invalid") throw new AppError("SIGNING_LINK_INVALID");
    if (estado !== "signed") throw new AppError("SIGNED_PDF_NOT_SIGNED");
    const file = await findSealedPdfFile(tx, link.tenantId, document);
    if (!file) throw new AppError("SIGNED_PDF_PREPARING");
    return { tenantId: link.tenantId, documentId: document.id, file };
  });
}

/** HEAD: is the sealed PDF there yet? (The page polls this: no bytes read, nothing audited.) */
export async function signerSignedPdfReady(db: Db, token: string, now = new Date()): Promise<void> {
  await signedPdfFileOf(db, token, now);
}

export interface GetSignerSignedPdfOptions {
  db: Db;
  storage: FileStorage;
  token: string;
  audit: { ip?: string | undefined; userAgent?: string | undefined };
  now?: Date;
}

/**
 * GET /api/public/sign/:token/signed-pdf: the sealed bytes under the name staff get, audited as
 * 'document.signed_pdf_downloaded_by_signer' (no actor; IP and user agent).
 */
export async function getSignerSignedPdf({
  db,
  storage,
  token,
  audit,
  now = new Date(),
}: GetSignerSignedPdfOptions): Promise<{ nome: string; bytes: Buffer }> {
  const { tenantId, documentId, file } = await signedPdfFileOf(db, token, now);
  const bytes = await storage.get(file.sha256);
  if (!bytes) throw new AppError("SIGNED_PDF_PREPARING");
  await withTenant(db, tenantId, (tx) =>
    recordAuditEvent(
      tx,
      { tenantId, actorProfileId: null, ip: audit.ip, userAgent: audit.userAgent },
      {
        action: "document.signed_pdf_downloaded_by_signer",
        entityType: "contrato",
        entityId: documentId,
        data: { file_id: file.id, nome: file.nome, via: "link" },
      },
    ),
  );
  return { nome: file.nome, bytes };
}
