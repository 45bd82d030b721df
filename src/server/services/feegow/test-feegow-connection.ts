import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { integracoesFeegow } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { FEEGOW_MESSAGES, type FeegowSettings } from "../../../shared/schemas/feegow.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { FeegowError } from "./feegow-client.js";
import {
  clientFor,
  type FeegowConnection,
  feegowAppError,
  loadFeegowRow,
  presentFeegowSettings,
} from "./feegow-store.js";

export interface TestFeegowConnectionOptions {
  db: Db;
  secretBox: SecretBox;
  connection: FeegowConnection;
  actor: Actor;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  log: { warn(obj: object, msg: string): void };
}

/**
 * "Testar conexão": one cheap call (GET /professional/list?ativo=1) with the saved token. Success
 * → connected and last_sync; failure → error, with the reason kept for the screen (spec part 2 §4).
 * No transaction stays open while Feegow answers; the result is written only if the token is still
 * the one tested.
 */
export async function testFeegowConnection({
  db,
  secretBox,
  connection,
  actor,
  audit,
  log,
}: TestFeegowConnectionOptions): Promise<{ ok: true; message: string; settings: FeegowSettings }> {
  const row = await withTenant(db, actor.tenantId, (tx) => loadFeegowRow(tx, actor.tenantId));
  const client = clientFor(row, secretBox, connection);
  const tested = row?.token_encrypted as Buffer;

  let failure: FeegowError | null = null;
  try {
    await client.listProfessionals();
  } catch (error) {
    if (!(error instanceof FeegowError)) throw error;
    failure = error;
    log.warn({ motivo: error.failure, httpStatus: error.httpStatus }, "Feegow connection test failed");
  }

  const now = new Date();
  const settings = await withTenant(db, actor.tenantId, async (tx) => {
    const [updated] = await tx
      .update(integracoesFeegow)
      .set(
        failure
          ? { status: "error", last_error: failure.message, updated_at: now }
          : { status: "connected", last_error: null, last_sync: now, updated_at: now },
      )
      .where(and(eq(integracoesFeegow.tenant_id, actor.tenantId), eq(integracoesFeegow.token_encrypted, tested)))
      .returning();
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "integration.feegow_tested",
        entityType: "tenant",
        entityId: actor.tenantId,
        data: failure ? { resultado: "erro", motivo: failure.failure } : { resultado: "ok" },
      },
    );
    return presentFeegowSettings(updated ?? (await loadFeegowRow(tx, actor.tenantId)));
  });

  if (failure) {
    const error = feegowAppError(failure);
    throw new AppError("FEEGOW_ERROR", `${FEEGOW_MESSAGES.connectionErrorDetail}: ${failure.message}`, {
      details: { ...error.extra.details, status: settings.status },
    });
  }
  return { ok: true, message: FEEGOW_MESSAGES.connectedDetail, settings };
}
