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

const LINKABLE = new Set(["sent", "viewed", "signed"]);

/** The document's live link again (Copiar Link, WhatsApp), or 404 'Token de assinatura não gerado'. */
export async function getSigningLink(db: Db, secretBox: SecretBox, actor: Actor, id: string, origin: string, now = new Date()): Promise<SigningLink> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id);
    const current = LINKABLE.has(effectiveStatus(document.status, document.expiracao_at, now))
      ? await currentSigningToken(tx, secretBox, actor.tenantId, id, now)
      : null;
    if (!current) throw new AppError("NOT_FOUND", SIGNING_MESSAGES.tokenMissing);
    const recipients = await loadLinkRecipients(tx, actor.tenantId, document.paciente_id);
    return presentSigningLink(origin, current.token, current.expiresAt, document.titulo, recipients, false);
  });
}
