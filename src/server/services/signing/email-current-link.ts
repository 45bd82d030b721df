import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { effectiveStatus } from "../../../shared/schemas/document.js";
import { SIGNING_MESSAGES, type SigningLink } from "../../../shared/schemas/signing.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import type { AuditContext } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { emailSigningLink, loadLinkRecipients, presentSigningLink } from "./signing-link.js";
import { currentSigningToken } from "./signing-tokens.js";
import type { EmailChannel } from "./signing-settings.js";

const EMAILABLE = new Set(["sent", "viewed"]);

export interface EmailCurrentLinkOptions {
  db: Db;
  secretBox: SecretBox;
  actor: Actor;
  id: string;
  origin: string;
  channel: EmailChannel;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * The preview dialog's Email button on a document already sent: e-mails the patient the SAME live
 * link (the one they may already have), through the outbox, and answers it for copying.
 */
export async function emailCurrentLink({
  db,
  secretBox,
  actor,
  id,
  origin,
  channel,
  audit,
  now = new Date(),
}: EmailCurrentLinkOptions): Promise<SigningLink> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id);
    if (!channel.usable) throw new AppError("EMAIL_NOT_DELIVERABLE");
    const current = EMAILABLE.has(effectiveStatus(document.status, document.expiracao_at, now))
      ? await currentSigningToken({ tx, secretBox, tenantId: actor.tenantId, contratoId: id, now })
      : null;
    if (!current) throw new AppError("NOT_FOUND", SIGNING_MESSAGES.tokenMissing);
    const recipients = await loadLinkRecipients(tx, actor.tenantId, document.paciente_id, now);
    const link = await presentSigningLink(tx, actor.tenantId, channel, {
      origin,
      token: current.token,
      expiresAt: current.expiresAt,
      titulo: document.titulo,
      recipients,
      emailQueued: true,
    });
    await emailSigningLink(
      tx,
      secretBox,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        contratoId: id,
        titulo: document.titulo,
        link: link.link,
        expiresAt: current.expiresAt,
        recipients,
        smtp: channel.smtp,
      },
    );
    return link;
  });
}
