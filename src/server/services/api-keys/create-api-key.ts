import type { Db } from "../../../db/client.js";
import { apiKeys } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { dateInSaoPaulo, startOfDayInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import {
  API_KEY_MESSAGES,
  type ApiKeyInput,
  type CreatedApiKey,
  roleWithinCreator,
} from "../../../shared/schemas/api-keys.js";
import { AppError } from "../../errors.js";
import { type Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { newApiKeySecret } from "./api-key-secret.js";
import { presentApiKey, selectApiKeys } from "./present-api-key.js";

const dayAfter = (date: string) => {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
};

export interface CreateApiKeyOptions {
  db: Db;
  actor: Actor;
  input: ApiKeyInput;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * A new key (decision 058): acting as `input.role`, never above its creator's permissions;
 * working through the last day `expira_em` (São Paulo) when given. The secret is returned this
 * once; the table keeps its SHA-256 and its visible prefix.
 */
export async function createApiKey({
  db,
  actor,
  input,
  audit,
  now = new Date(),
}: CreateApiKeyOptions): Promise<CreatedApiKey> {
  if (!roleWithinCreator(actor, input.role)) throw new AppError("API_KEY_ROLE_ABOVE");
  const lastDay = input.expira_em ?? null;
  if (lastDay !== null && lastDay < dateInSaoPaulo(now)) {
    throw new AppError("VALIDATION", API_KEY_MESSAGES.expiryPast, {
      issues: [{ path: "expira_em", message: API_KEY_MESSAGES.expiryPast }],
    });
  }
  const { secret, prefixo, hash } = newApiKeySecret();
  return withTenant(db, actor.tenantId, async (tx) => {
    const [inserted] = await tx
      .insert(apiKeys)
      .values({
        tenant_id: actor.tenantId,
        nome: input.nome,
        role: input.role,
        prefixo,
        token_hash: hash,
        created_by: actor.profileId,
        expires_at: lastDay ? startOfDayInSaoPaulo(dayAfter(lastDay)) : null,
      })
      .returning({ id: apiKeys.id });
    if (!inserted) throw new AppError("INTERNAL");
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "api_key.created",
        entityType: "chave_api",
        entityId: inserted.id,
        data: { nome: input.nome, role: input.role, prefixo, expira_em: lastDay },
      },
    );
    const [row] = await selectApiKeys(tx, actor.tenantId, inserted.id);
    if (!row) throw new AppError("INTERNAL");
    return { chave: presentApiKey(row, now), segredo: secret };
  });
}
