import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { apiKeys, profiles } from "../../../db/schema.js";
import { dateInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import type { ApiKeyStatus, ApiKeyView } from "../../../shared/schemas/api-keys.js";

type Row = typeof apiKeys.$inferSelect & { creatorNome: string };

export function apiKeyStatus(row: { revoked_at: Date | null; expires_at: Date | null }, now: Date): ApiKeyStatus {
  if (row.revoked_at) return "revogada";
  if (row.expires_at && row.expires_at <= now) return "expirada";
  return "ativa";
}

/** A key as Configurações lists it: never its hash, never the secret. */
export function presentApiKey(row: Row, now: Date): ApiKeyView {
  return {
    id: row.id,
    nome: row.nome,
    role: row.role,
    prefixo: row.prefixo,
    criada_por: { id: row.created_by, nome: row.creatorNome },
    criada_em: row.created_at.toISOString(),
    ultimo_uso_em: row.last_used_at?.toISOString() ?? null,
    // Stored as the first instant it no longer works; shown as the last day it does (São Paulo).
    expira_em: row.expires_at ? dateInSaoPaulo(new Date(row.expires_at.getTime() - 1)) : null,
    revogada_em: row.revoked_at?.toISOString() ?? null,
    status: apiKeyStatus(row, now),
  };
}

/** The clinic's keys, newest first (or the one `id`), with their creators' names. */
export async function selectApiKeys(tx: DbOrTx, tenantId: string, id?: string): Promise<Row[]> {
  const rows = await tx
    .select({ key: apiKeys, creatorNome: profiles.nome })
    .from(apiKeys)
    .innerJoin(profiles, eq(profiles.id, apiKeys.created_by))
    .where(id ? and(eq(apiKeys.tenant_id, tenantId), eq(apiKeys.id, id)) : eq(apiKeys.tenant_id, tenantId))
    .orderBy(desc(apiKeys.created_at), desc(apiKeys.id));
  return rows.map((r) => ({ ...r.key, creatorNome: r.creatorNome }));
}
