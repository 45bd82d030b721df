import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { sessions } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { effectiveStatus } from "../../../shared/schemas/document.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { SessionUser } from "../auth/sessions.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { hasSigned } from "./link-signer.js";
import { currentSigningToken } from "./signing-tokens.js";

const WAITING = new Set(["sent", "viewed"]);

export interface StartFrontDeskSigningOptions {
  db: Db;
  secretBox: SecretBox;
  actor: SessionUser;
  id: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * "Assinar neste aparelho": the staff member hands their own device to the patient.
 * In one transaction: the document must wait for the patient's (or guardian's) signature; the
 * staff member's session is locked to this document — every private route then answers 423
 * until they type their password again — and the hand-over is an audit event naming them. The
 * answer is the patient's live link (the same one sent, so nothing else changes); a signature
 * made through it from this locked session is recorded as presencial.
 */
export async function startFrontDeskSigning({
  db,
  secretBox,
  actor,
  id,
  audit,
  now = new Date(),
}: StartFrontDeskSigningOptions): Promise<{ caminho: string }> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id);
    if (!WAITING.has(effectiveStatus(document.status, document.expiracao_at, now)))
      throw new AppError("FRONT_DESK_NOT_WAITING");
    if (await hasSigned(tx, actor.tenantId, id, { papel: "paciente", ordem: 1 }))
      throw new AppError("FRONT_DESK_NOT_WAITING");
    const current = await currentSigningToken({ tx, secretBox, tenantId: actor.tenantId, contratoId: id, now });
    if (!current) throw new AppError("FRONT_DESK_NOT_WAITING");
    await tx
      .update(sessions)
      .set({ locked_at: now, locked_contrato_id: id })
      .where(and(eq(sessions.tenant_id, actor.tenantId), eq(sessions.id, actor.sessionId)));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.front_desk_started",
        entityType: "contrato",
        entityId: id,
        data: { por: actor.profileId, nome: actor.nome },
      },
    );
    return { caminho: `/assinar/${current.token}?balcao=1` };
  });
}
