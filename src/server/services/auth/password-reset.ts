import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { passwordResetTokens, profiles, sessions, signInThrottles } from "../../../db/schema.js";
import { AppError } from "../../errors.js";
import { hashPassword } from "../../lib/passwords.js";
import { hashToken, newToken } from "../../lib/tokens.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import { throttleKey } from "./sign-in-throttle.js";

export const RESET_TOKEN_MINUTES = 60;

/**
 * Sends a reset link when the e-mail belongs to an active account. Says nothing either way, so
 * the answer does not reveal who has an account.
 */
export async function requestPasswordReset(
  db: Db,
  input: { email: string; origin: string; box: SecretBox; now?: Date },
): Promise<void> {
  const now = input.now ?? new Date();
  const [profile] = await db
    .select({ id: profiles.id, tenantId: profiles.tenant_id, nome: profiles.nome, email: profiles.email })
    .from(profiles)
    .where(and(sql`lower(${profiles.email}) = ${input.email.toLowerCase()}`, eq(profiles.is_active, true)))
    .limit(1);
  if (!profile) return;

  const token = newToken();
  const link = `${input.origin}/auth/redefinir-senha?token=${token}`;
  await db.transaction(async (tx) => {
    await tx.insert(passwordResetTokens).values({
      tenant_id: profile.tenantId,
      profile_id: profile.id,
      token_hash: hashToken(token),
      expires_at: new Date(now.getTime() + RESET_TOKEN_MINUTES * 60 * 1000),
    });
    await enqueueEmail(tx, input.box, {
      tenantId: profile.tenantId,
      to: profile.email,
      subject: "Consentir — redefinição de senha",
      text:
        `Olá, ${profile.nome}.\n\n` +
        `Recebemos um pedido para redefinir a senha da sua conta no Consentir.\n` +
        `Para criar uma nova senha, abra o link abaixo (válido por ${RESET_TOKEN_MINUTES} minutos):\n\n${link}\n\n` +
        `Se você não fez este pedido, ignore este e-mail: sua senha continua a mesma.`,
    });
  });
}

/** Sets a new password from a valid, unused, unexpired link; ends every session of the account. */
export async function resetPassword(db: Db, input: { token: string; password: string; now?: Date }): Promise<void> {
  const now = input.now ?? new Date();
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(passwordResetTokens)
      .set({ used_at: now })
      .where(
        and(
          eq(passwordResetTokens.token_hash, hashToken(input.token)),
          isNull(passwordResetTokens.used_at),
          gt(passwordResetTokens.expires_at, now),
        ),
      )
      .returning({ profileId: passwordResetTokens.profile_id });
    if (!row) throw new AppError("RESET_TOKEN_INVALID");
    const [profile] = await tx
      .update(profiles)
      .set({ password_hash: passwordHash, updated_at: now })
      .where(eq(profiles.id, row.profileId))
      .returning({ email: profiles.email });
    await tx.delete(sessions).where(eq(sessions.profile_id, row.profileId));
    // The link proved control of the mailbox: a sign-in lock (decision 011) ends here too.
    if (profile) await tx.delete(signInThrottles).where(eq(signInThrottles.email_hash, throttleKey(profile.email)));
  });
}
