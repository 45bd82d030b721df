import type { Db } from "../../../db/client.js";
import type { SigningPage } from "../../../shared/schemas/signing.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { AppError } from "../../errors.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { checkSigningCode } from "./check-signing-code.js";
import { openSigningPage } from "./open-signing-page.js";
import { recordSigningFailure } from "./record-signing-failure.js";
import type { EmailChannel } from "./signing-settings.js";
import { signingState } from "./signing-state.js";
import { findSigningTokenOrThrow } from "./signing-tokens.js";
import { hasSigned, loadLinkSigner } from "./link-signer.js";

/**
 * POST /api/public/sign/:token/verify-code: the signer proves control of the registered e-mail
 * before reading the whole term. A wrong code counts an attempt and is audited; a right one is
 * audited and answers the page unmasked. The code stays valid (and is consumed) for the signature.
 */
export async function verifySigningCode(
  db: Db,
  storage: FileStorage,
  channel: EmailChannel,
  token: string,
  code: string,
  audit: { ip?: string | undefined; userAgent?: string | undefined },
  now = new Date(),
): Promise<SigningPage> {
  const link = await findSigningTokenOrThrow(db, token);
  const { document, signer, signed } = await withTenant(db, link.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, link.tenantId, link.contratoId).catch(() => {
      throw new AppError("SIGNING_LINK_INVALID");
    });
    const parties = await loadLinkSigner(tx, link.tenantId, link, document, now);
    if (!parties) throw new AppError("SIGNING_LINK_INVALID");
    return { document, signer: parties.signer, signed: await hasSigned(tx, link.tenantId, document.id, parties.signer) };
  });
  const state = signingState(link, document, now, signed);
  if (state === "signed") throw new AppError("SIGNING_ALREADY_SIGNED");
  if (state === "invalid") throw new AppError("SIGNING_LINK_INVALID");
  try {
    await checkSigningCode(db, link.tenantId, document.id, code, now, signer.testemunhaId);
  } catch (error) {
    if (error instanceof AppError && error.code === "SIGNING_OTP_INVALID") await recordSigningFailure(db, link.tenantId, document.id, "codigo", audit, null, signer.testemunhaId);
    throw error;
  }
  await withTenant(db, link.tenantId, (tx) =>
    recordAuditEvent(
      tx,
      { tenantId: link.tenantId, actorProfileId: null, ...audit },
      { action: "document.otp_verified", entityType: "contrato", entityId: document.id, data: signer.testemunhaId ? { testemunha_id: signer.testemunhaId } : {} },
    ),
  );
  return openSigningPage(db, storage, channel, token, audit, { revealed: true }, now);
}
