import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { checkCurrentPassword } from "../profiles/check-current-password.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { type SessionUser, unlockSession } from "./sessions.js";

/**
 * Ends front-desk signing: the staff member's own password, with the sign-in throttle
 * (5 wrong → 429), gives the device back to them. Audited on the document handed over.
 */
export async function unlockFrontDesk(
  db: Db,
  actor: SessionUser,
  password: string,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<void> {
  await checkCurrentPassword(db, actor, password);
  await unlockSession(db, actor.sessionId);
  if (!actor.lockedContratoId) return;
  const contratoId = actor.lockedContratoId;
  await withTenant(db, actor.tenantId, (tx) =>
    recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.front_desk_ended",
        entityType: "contrato",
        entityId: contratoId,
        data: { por: actor.profileId, nome: actor.nome },
      },
    ),
  );
}
