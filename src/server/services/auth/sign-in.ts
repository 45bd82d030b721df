import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { AppError } from "../../errors.js";
import { burnPasswordCheck, verifyPassword } from "../../lib/passwords.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import { claimAttempt, forgetFailures, MAX_LOCK_MINUTES } from "./sign-in-throttle.js";

/** What the lock-notice e-mail needs to say where to go. */
export interface SignInContext {
  /** The site origin for links (siteOrigin(env)). */
  origin: string;
  /** Seals the warning e-mail in the outbox. */
  box: SecretBox;
  now?: Date;
}

/**
 * Checks the credentials; returns who signed in. Unknown e-mail and wrong password look alike,
 * and both are throttled per address (decision 011): after 5 consecutive failures the address
 * is locked for a growing time, answered with SIGN_IN_LOCKED (429, Retry-After).
 */
export async function checkCredentials(
  db: Db,
  email: string,
  password: string,
  context: SignInContext,
): Promise<{ profileId: string; tenantId: string }> {
  const now = context.now ?? new Date();
  const claim = await claimAttempt(db, email, now);
  if (claim.locked) throw signInLocked(claim.lockedUntil, now);

  const [profile] = await db
    .select({
      id: profiles.id,
      tenantId: profiles.tenant_id,
      nome: profiles.nome,
      email: profiles.email,
      passwordHash: profiles.password_hash,
      isActive: profiles.is_active,
    })
    .from(profiles)
    .where(sql`lower(${profiles.email}) = ${email.toLowerCase()}`)
    .limit(1);
  if (!profile) {
    await burnPasswordCheck(password);
    throw new AppError("INVALID_CREDENTIALS");
  }
  if (!(await verifyPassword(profile.passwordHash, password))) {
    if (claim.lockStarted && profile.isActive) {
      await enqueueEmail(db, context.box, {
        tenantId: profile.tenantId,
        to: profile.email,
        subject: "Consentir — várias tentativas de entrar na sua conta",
        text: lockNotice(profile.nome, context.origin),
      });
    }
    throw new AppError("INVALID_CREDENTIALS");
  }
  await forgetFailures(db, email, now);
  if (!profile.isActive) throw new AppError("ACCOUNT_INACTIVE");
  return { profileId: profile.id, tenantId: profile.tenantId };
}

/** The 429 of a locked address: when to try again, in words, in Retry-After and in details. */
export function signInLocked(lockedUntil: Date, now: Date): AppError {
  const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  const wait = minutes === 1 ? "1 minuto" : `${minutes} minutos`;
  return new AppError(
    "SIGN_IN_LOCKED",
    `Muitas tentativas de entrar nesta conta. Por segurança, aguarde ${wait} e tente novamente.`,
    { details: { retry_after_seconds: seconds, locked_until: lockedUntil.toISOString() } },
  );
}

function lockNotice(nome: string, origin: string): string {
  return (
    `Olá, ${nome}.\n\n` +
    `Detectamos várias tentativas de entrar na sua conta no Consentir com a senha errada. ` +
    `Por segurança, novas tentativas ficam bloqueadas por alguns minutos (o bloqueio cresce a cada nova ` +
    `tentativa errada, até ${MAX_LOCK_MINUTES} minutos).\n\n` +
    `Se foi você e não lembra a senha, redefina-a: abra ${origin}/auth, clique em "Esqueci minha senha" ` +
    `e siga o link que enviaremos para este e-mail.\n\n` +
    `Se não foi você, recomendamos redefinir a senha do mesmo modo e escolher uma senha que você não use ` +
    `em outros sites. Essas tentativas falharam: ninguém entrou na sua conta com elas.`
  );
}
