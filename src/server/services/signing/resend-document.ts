import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { effectiveStatus } from "../../../shared/schemas/document.js";
import type { SigningLink } from "../../../shared/schemas/signing.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import type { AuditContext } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { issueAndShareLink } from "./signing-link.js";
import type { EmailChannel } from "./signing-settings.js";
import { revokeSigningTokens } from "./signing-tokens.js";

/**
 * Reenviar: a sent or viewed (and not yet past its deadline) document gets a new link; every
 * previous link stops working at once. The document keeps its status.
 */
export async function resendDocument(
  db: Db,
  secretBox: SecretBox,
  actor: Actor,
  id: string,
  input: { email: boolean; origin: string; channel: EmailChannel },
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
  now = new Date(),
): Promise<SigningLink> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id, true);
    const status = effectiveStatus(document.status, document.expiracao_at, now);
    if (status !== "sent" && status !== "viewed") throw new AppError("DOCUMENT_NOT_RESENDABLE");
    await revokeSigningTokens(tx, actor.tenantId, id, now);
    const expiresAt = document.expiracao_at;
    await tx.update(contratos).set({ updated_at: now }).where(and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.id, id)));
    const context = { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit };
    return issueAndShareLink(tx, secretBox, context, { document, action: "document.resent", expiresAt, email: input.email, origin: input.origin, channel: input.channel, now });
  });
}
