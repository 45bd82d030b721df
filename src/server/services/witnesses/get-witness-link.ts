import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { effectiveStatus } from "../../../shared/schemas/document.js";
import { SIGNING_MESSAGES, type WitnessLink } from "../../../shared/schemas/signing.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { currentSigningToken } from "../signing/signing-tokens.js";
import { presentWitnessLink } from "./witness-links.js";
import { findWitness } from "./witness-rows.js";

const LINKABLE = new Set(["sent", "viewed"]);

export interface GetWitnessLinkOptions {
  db: Db;
  secretBox: SecretBox;
  actor: Actor;
  id: string;
  witnessId: string;
  origin: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * GET /api/documents/:id/witnesses/:witnessId/link: a witness's live link again (to copy or send by
 * WhatsApp). Whoever holds it can sign as that witness's link, so each fetch is audited naming the
 * staff member, like the patient's link (decision 015).
 */
export async function getWitnessLink({
  db,
  secretBox,
  actor,
  id,
  witnessId,
  origin,
  audit,
  now = new Date(),
}: GetWitnessLinkOptions): Promise<WitnessLink> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id);
    const witness = await findWitness(tx, actor.tenantId, id, witnessId);
    if (!witness) throw new AppError("NOT_FOUND", "Testemunha não encontrada");
    const current = LINKABLE.has(effectiveStatus(document.status, document.expiracao_at, now))
      ? await currentSigningToken({
          tx,
          secretBox,
          tenantId: actor.tenantId,
          contratoId: id,
          now,
          testemunhaId: witness.id,
        })
      : null;
    if (!current) throw new AppError("NOT_FOUND", SIGNING_MESSAGES.tokenMissing);
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.link_accessed",
        entityType: "contrato",
        entityId: id,
        data: { via: "ver", por: actor.profileId, testemunha_id: witness.id },
      },
    );
    return presentWitnessLink(witness, {
      origin,
      token: current.token,
      expiresAt: current.expiresAt,
      titulo: document.titulo,
      emailed: false,
    });
  });
}
