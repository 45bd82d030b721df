import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { effectiveStatus } from "../../../shared/schemas/document.js";
import { SIGNING_MESSAGES, type SigningLink } from "../../../shared/schemas/signing.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { loadLinkRecipients, presentSigningLink } from "./signing-link.js";
import { currentSigningToken } from "./signing-tokens.js";
import type { EmailChannel } from "./signing-settings.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";

const LINKABLE = new Set(["sent", "viewed", "signed"]);

export interface GetSigningLinkOptions {
  db: Db;
  secretBox: SecretBox;
  actor: Actor;
  id: string;
  origin: string;
  channel: EmailChannel;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId"> & { via: "ver" | "copiar" | "whatsapp" | "qr" };
  now?: Date;
}

/**
 * The document's live link again (Copiar Link, WhatsApp), or 404 'Token de assinatura não gerado'.
 * Whoever holds the link can open the term, so every staff fetch is an audit event naming the
 * user, shown on the document's trail and printed in the signatures registry.
 */
export async function getSigningLink({
  db,
  secretBox,
  actor,
  id,
  origin,
  channel,
  audit,
  now = new Date(),
}: GetSigningLinkOptions): Promise<SigningLink> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id);
    const current = LINKABLE.has(effectiveStatus(document.status, document.expiracao_at, now))
      ? await currentSigningToken({ tx, secretBox, tenantId: actor.tenantId, contratoId: id, now })
      : null;
    if (!current) throw new AppError("NOT_FOUND", SIGNING_MESSAGES.tokenMissing);
    const recipients = await loadLinkRecipients(tx, actor.tenantId, document.paciente_id);
    const { via, ...context } = audit;
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...context },
      {
        action: "document.link_accessed",
        entityType: "contrato",
        entityId: id,
        data: { via, por: actor.profileId },
      },
    );
    return presentSigningLink(tx, actor.tenantId, channel, {
      origin,
      token: current.token,
      expiresAt: current.expiresAt,
      titulo: document.titulo,
      recipients,
      emailQueued: false,
    });
  });
}
