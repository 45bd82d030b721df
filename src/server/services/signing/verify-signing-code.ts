import type { Db } from "../../../db/client.js";
import type { SigningPage } from "../../../shared/schemas/signing.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { AppError } from "../../errors.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { matchSigningCode } from "./check-signing-code.js";
import { buildSigningPage, loadLinkState, openSigningPage, presentSigningPage } from "./open-signing-page.js";
import { recordSigningFailureIn } from "./record-signing-failure.js";
import type { EmailChannel } from "./signing-settings.js";
import { findSigningTokenOrThrow } from "./signing-tokens.js";

export interface VerifySigningCodeOptions {
  db: Db;
  codeKey: Buffer;
  storage: FileStorage;
  channel: EmailChannel;
  token: string;
  code: string;
  audit: { ip?: string | undefined; userAgent?: string | undefined };
  now?: Date;
}

/**
 * POST /api/public/sign/:token/verify-code: the signer proves control of the registered e-mail
 * before reading the whole term. A wrong code counts an attempt and is audited; a right one is
 * audited and answers the page unmasked. The code stays valid (and is consumed) for the signature.
 *
 * One transaction (it was four): the link's state, the code (a wrong one commits its
 * attempt and the failure's event, then is refused), the 'document.otp_verified' event and the
 * page. Only a link never opened before (still 'sent', when a client skips the page's GET) builds
 * the page in a second transaction, as the GET does: its move to viewed changes the status, which
 * must come before any audit event of a transaction (the lock order).
 */
export async function verifySigningCode({
  db,
  codeKey,
  storage,
  channel,
  token,
  code,
  audit,
  now = new Date(),
}: VerifySigningCodeOptions): Promise<SigningPage> {
  if (!code) throw new AppError("SIGNING_OTP_REQUIRED");
  const link = await findSigningTokenOrThrow(db, token);
  const outcome = await withTenant(db, link.tenantId, async (tx) => {
    const state = await loadLinkState(tx, link, now);
    if (state.estado === "signed") throw new AppError("SIGNING_ALREADY_SIGNED");
    if (state.estado === "invalid") throw new AppError("SIGNING_LINK_INVALID");
    const { document, signer } = state;
    const otpId = await matchSigningCode({
      tx,
      key: codeKey,
      tenantId: link.tenantId,
      contratoId: document.id,
      code,
      now,
      testemunhaId: signer.testemunhaId,
    });
    if (!otpId) {
      await recordSigningFailureIn(tx, link.tenantId, document.id, "codigo", audit, null, signer.testemunhaId);
      return { refused: true as const };
    }
    await recordAuditEvent(
      tx,
      { tenantId: link.tenantId, actorProfileId: null, ...audit },
      {
        action: "document.otp_verified",
        entityType: "contrato",
        entityId: document.id,
        data: signer.testemunhaId ? { testemunha_id: signer.testemunhaId } : {},
      },
    );
    if (document.status === "sent") return { refused: false as const, page: null };
    return {
      refused: false as const,
      page: await buildSigningPage({ tx, channel, link, audit, revealed: true, now, state }),
    };
  });
  if (outcome.refused) throw new AppError("SIGNING_OTP_INVALID");
  if (!outcome.page) return openSigningPage({ db, storage, channel, token, audit, revealed: true, now });
  return presentSigningPage(outcome.page, storage);
}
