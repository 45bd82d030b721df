import type { Db, Tx } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";

export type SigningFailure = "nome" | "cpf" | "codigo" | "senha";

/**
 * A refused attempt on the public signing page (wrong name, CPF or code) is evidence too
 *: it is written in its own transaction, so it stays even though the attempt fails.
 */
export async function recordSigningFailure(db: Db, ...failure: SigningFailureEvent): Promise<void> {
  await withTenant(db, failure[0], (tx) => recordSigningFailureIn(tx, ...failure));
}

/** tenantId, contratoId, motivo, the request's address, the staff member (if one), the witness (if one). */
type SigningFailureEvent = [
  tenantId: string,
  contratoId: string,
  motivo: SigningFailure,
  audit: { ip?: string | undefined; userAgent?: string | undefined },
  actorProfileId?: string | null,
  testemunhaId?: string | null,
];

/** The same event inside the caller's transaction (which must commit even though the attempt is refused). */
export async function recordSigningFailureIn(
  tx: Tx,
  ...[tenantId, contratoId, motivo, audit, actorProfileId = null, testemunhaId = null]: SigningFailureEvent
): Promise<void> {
  await recordAuditEvent(
    tx,
    { tenantId, actorProfileId, ip: audit.ip, userAgent: audit.userAgent },
    {
      action: "document.sign_attempt_failed",
      entityType: "contrato",
      entityId: contratoId,
      data: { motivo, ...(testemunhaId ? { testemunha_id: testemunhaId } : {}) },
    },
  );
}
