import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { ApiKeyView } from "../../../shared/schemas/api-keys.js";
import { type Actor } from "../../policies/roles.js";
import { presentApiKey, selectApiKeys } from "./present-api-key.js";

/** Configurações → Chaves de API: every key of the clinic, revoked and expired ones too. */
export async function listApiKeys(db: Db, actor: Actor, now = new Date()): Promise<ApiKeyView[]> {
  const rows = await withTenant(db, actor.tenantId, (tx) => selectApiKeys(tx, actor.tenantId));
  return rows.map((row) => presentApiKey(row, now));
}
