import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { integracoesFeegow } from "../../../db/schema.js";
import {
  FEEGOW_FEATURES,
  FEEGOW_MESSAGES,
  type FeegowFeature,
  type FeegowFeatureFlags,
  type FeegowSettings,
} from "../../../shared/schemas/feegow.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { type FeegowClient, feegowClient, FeegowError } from "./feegow-client.js";

export type FeegowRow = typeof integracoesFeegow.$inferSelect;

/** Where the clinic system is and how long to wait for it (env FEEGOW_URL, FEEGOW_TIMEOUT_MS). */
export interface FeegowConnection {
  baseUrl: string;
  timeoutMs: number;
}

export async function loadFeegowRow(tx: DbOrTx, tenantId: string, forUpdate = false): Promise<FeegowRow | undefined> {
  const query = tx.select().from(integracoesFeegow).where(eq(integracoesFeegow.tenant_id, tenantId)).limit(1);
  const [row] = forUpdate ? await query.for("update") : await query;
  return row;
}

export function featureFlags(row: FeegowRow | undefined): FeegowFeatureFlags {
  return Object.fromEntries(
    FEEGOW_FEATURES.map((feature) => [feature, row?.integrations[feature] === true]),
  ) as FeegowFeatureFlags;
}

/** What leaves the server: never the token, only whether there is one and its last four characters. */
export function presentFeegowSettings(row: FeegowRow | undefined): FeegowSettings {
  const configurado = Boolean(row?.token_encrypted);
  return {
    configurado,
    token_mascarado: configurado ? `••••${row?.token_final ?? ""}` : null,
    status: row?.status ?? "disconnected",
    integrations: featureFlags(row),
    last_sync: row?.last_sync?.toISOString() ?? null,
    ultimo_erro: row?.status === "error" ? row.last_error : null,
    updated_at: row?.updated_at.toISOString() ?? null,
  };
}

/** The last four characters shown on the screen; none for a token too short to spare them. */
export function tokenFinal(token: string): string | null {
  return token.length >= 12 ? token.slice(-4) : null;
}

/** A client with the clinic's token, opened from the secret box; FEEGOW_TOKEN_MISSING without one. */
export function clientFor(
  row: FeegowRow | undefined,
  secretBox: SecretBox,
  connection: FeegowConnection,
): FeegowClient {
  if (!row?.token_encrypted) throw new AppError("FEEGOW_TOKEN_MISSING");
  let token: string;
  try {
    token = secretBox.open(row.token_encrypted).toString("utf8");
  } catch {
    // Sealed with another instance key (APP_SECRET changed): the token is gone, not an outage.
    throw new AppError(
      "FEEGOW_TOKEN_MISSING",
      "Token não configurado: o token salvo não pode mais ser lido neste servidor. Salve-o novamente.",
    );
  }
  return feegowClient({ baseUrl: connection.baseUrl, token, timeoutMs: connection.timeoutMs });
}

/** A Feegow failure as our error: 502 with Feegow's reason in words; anything else is ours and rethrown. */
export function feegowAppError(error: unknown): AppError {
  if (error instanceof FeegowError) {
    return new AppError("FEEGOW_ERROR", error.message, { details: { motivo: error.failure } });
  }
  throw error;
}

/** FEEGOW_FEATURE_DISABLED ('Integração desabilitada: …') unless the switch is on. */
export function assertFeature(row: FeegowRow | undefined, feature: FeegowFeature): void {
  if (row?.integrations[feature] === true) return;
  throw new AppError(
    "FEEGOW_FEATURE_DISABLED",
    `${FEEGOW_MESSAGES.disabled}: ${FEEGOW_MESSAGES.disabledDetail[feature]}`,
    {
      details: { feature },
    },
  );
}

/** FEEGOW_URL and FEEGOW_TIMEOUT_MS as the client wants them. */
export function feegowConnection(env: { FEEGOW_URL: string; FEEGOW_TIMEOUT_MS: number }): FeegowConnection {
  return { baseUrl: env.FEEGOW_URL, timeoutMs: env.FEEGOW_TIMEOUT_MS };
}
