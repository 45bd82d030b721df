/**
 * Wrong certificate passwords are limited per user (decision 019): each one is an audit event
 * ('certificate.upload_refused', motivo 'wrong_password'); with 5 of them in the last 15
 * minutes, further uploads by that user answer 429 without opening the file. Counted in the
 * database, so every process shares the count; a per-user advisory lock makes a burst of
 * parallel attempts wait its turn instead of all passing the count at once.
 */
import { sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { rawRows } from "../../../db/raw.js";
import {
  CERTIFICATE_PASSWORD_WINDOW_MINUTES,
  MAX_CERTIFICATE_PASSWORD_FAILURES,
} from "../../../shared/reference/limits.js";
import { AppError } from "../../errors.js";

export async function assertPasswordAttemptsLeft(tx: Tx, tenantId: string, profileId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`certificados:senha:${profileId}`}))`);
  const window = `${CERTIFICATE_PASSWORD_WINDOW_MINUTES} minutes`;
  const [row] = await rawRows<{ failures: number; retry_after: number | null }>(
    tx,
    sql`select count(*)::int as failures,
               ceil(extract(epoch from (min(created_at) + ${window}::interval - now())))::int as retry_after
          from audit_events
         where tenant_id = ${tenantId} and actor_profile_id = ${profileId}
           and action = 'certificate.upload_refused' and data->>'motivo' = 'wrong_password'
           and created_at > now() - ${window}::interval`,
  );
  if ((row?.failures ?? 0) < MAX_CERTIFICATE_PASSWORD_FAILURES) return;
  const seconds = Math.max(1, row?.retry_after ?? CERTIFICATE_PASSWORD_WINDOW_MINUTES * 60);
  const minutes = Math.ceil(seconds / 60);
  const error = new AppError(
    "CERTIFICATE_PASSWORD_LOCKED",
    `Muitas tentativas com senha incorreta. Por segurança, aguarde ${minutes} ${minutes === 1 ? "minuto" : "minutos"} antes de tentar de novo.`,
    { details: { retry_after_seconds: seconds } },
  );
  error.retryAfterSeconds = seconds;
  throw error;
}
