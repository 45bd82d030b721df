import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/client.js";
import { profiles, sessions, signInThrottles, tenants, userInvitations } from "../../../db/schema.js";
import { ROLE_LABEL, type Role } from "../../../shared/permissions.js";
import { INVITATION_DAYS, type InvitationInfo } from "../../../shared/schemas/users.js";
import { AppError } from "../../errors.js";
import { hashPassword } from "../../lib/passwords.js";
import { hashToken, newToken } from "../../lib/tokens.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { throttleKey } from "../auth/sign-in-throttle.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import type { SecretBox } from "../../lib/secret-box.js";

/**
 * An unused invitation's expiry and whether one was ever accepted, beside each profile row.
 * The outer columns are spelled out: Drizzle writes a lone table's columns unqualified, which
 * inside the subquery would name the invitation's own id.
 */
export const invitationColumns = {
  pendingUntil:
    sql<Date | null>`(select max(i.expires_at) from ${userInvitations} i where i.profile_id = "profiles"."id" and i.tenant_id = "profiles"."tenant_id" and i.used_at is null)`.mapWith(
      (value: string | Date | null) => (value === null ? null : new Date(value)),
    ),
  accepted:
    sql<boolean>`exists (select 1 from ${userInvitations} i where i.profile_id = "profiles"."id" and i.tenant_id = "profiles"."tenant_id" and i.used_at is not null)`.mapWith(
      (value: unknown) => value === true || value === "t" || value === "true",
    ),
};

/**
 * Stores a new invitation (only the token's SHA-256) and e-mails its link, built from the site
 * origin (never a request header), in the caller's transaction.
 */
export async function sendInvitation(
  tx: DbOrTx,
  input: {
    tenantId: string;
    profile: { id: string; nome: string; email: string; role: string };
    invitedBy: { profileId: string; nome: string };
    origin: string;
    box: SecretBox;
    now?: Date;
  },
): Promise<{ expiresAt: Date }> {
  const now = input.now ?? new Date();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 24 * 60 * 60 * 1000);
  await tx.insert(userInvitations).values({
    tenant_id: input.tenantId,
    profile_id: input.profile.id,
    token_hash: hashToken(token),
    created_by: input.invitedBy.profileId,
    created_at: now,
    expires_at: expiresAt,
  });
  const [tenant] = await tx.select({ nome: tenants.nome }).from(tenants).where(eq(tenants.id, input.tenantId)).limit(1);
  const clinica = tenant?.nome ?? "sua clínica";
  const link = `${input.origin}/convite/${token}`;
  const funcao = ROLE_LABEL[input.profile.role as Role] ?? input.profile.role;
  await enqueueEmail(tx, input.box, {
    tenantId: input.tenantId,
    to: input.profile.email,
    subject: `Consentir — convite para a equipe de ${clinica}`,
    text:
      `Olá, ${input.profile.nome}.\n\n` +
      `${input.invitedBy.nome} convidou você para usar o Consentir na equipe de ${clinica}, com a função ${funcao}.\n\n` +
      `Para criar a sua senha e entrar, abra o link abaixo. Ele vale por ${INVITATION_DAYS} dias e pode ser usado uma única vez:\n\n` +
      `${link}\n\n` +
      `Se você não esperava este convite, ignore este e-mail: nenhuma senha será criada.`,
  });
  return { expiresAt };
}

const validInvitation = (token: string, now: Date) =>
  and(
    eq(userInvitations.token_hash, hashToken(token)),
    isNull(userInvitations.used_at),
    gt(userInvitations.expires_at, now),
  );

/** Who a valid link invites, to which clinic; an unknown, used, expired or deactivated one is INVITATION_INVALID. */
export async function lookupInvitation(db: Db, token: string, now = new Date()): Promise<InvitationInfo> {
  const [row] = await db
    .select({
      nome: profiles.nome,
      email: profiles.email,
      isActive: profiles.is_active,
      clinica: tenants.nome,
      expiresAt: userInvitations.expires_at,
    })
    .from(userInvitations)
    .innerJoin(profiles, eq(profiles.id, userInvitations.profile_id))
    .innerJoin(tenants, eq(tenants.id, userInvitations.tenant_id))
    .where(validInvitation(token, now))
    .limit(1);
  if (!row || !row.isActive) throw new AppError("INVITATION_INVALID");
  return { nome: row.nome, email: row.email, clinica: row.clinica, expires_at: row.expiresAt.toISOString() };
}

/**
 * Sets the invited person's password from a valid link, once: the link (and any other still
 * open for the same person) is spent in the same transaction. Runs before a tenant is known,
 * as the server's own role, like a password reset.
 */
export async function acceptInvitation(
  db: Db,
  input: { token: string; password: string; ip?: string; userAgent?: string; now?: Date },
): Promise<{ profileId: string; tenantId: string }> {
  const now = input.now ?? new Date();
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .update(userInvitations)
      .set({ used_at: now })
      .where(validInvitation(input.token, now))
      .returning({
        id: userInvitations.id,
        profileId: userInvitations.profile_id,
        tenantId: userInvitations.tenant_id,
      });
    if (!invitation) throw new AppError("INVITATION_INVALID");
    const [profile] = await tx
      .update(profiles)
      .set({ password_hash: passwordHash, updated_at: now })
      .where(
        and(
          eq(profiles.id, invitation.profileId),
          eq(profiles.tenant_id, invitation.tenantId),
          eq(profiles.is_active, true),
        ),
      )
      .returning({ email: profiles.email });
    // Deactivated after the invitation was sent: the link no longer opens anything (rolled back).
    if (!profile) throw new AppError("INVITATION_INVALID");
    await tx
      .update(userInvitations)
      .set({ used_at: now })
      .where(and(eq(userInvitations.profile_id, invitation.profileId), isNull(userInvitations.used_at)));
    await tx.delete(sessions).where(eq(sessions.profile_id, invitation.profileId));
    await tx.delete(signInThrottles).where(eq(signInThrottles.email_hash, throttleKey(profile.email)));
    await recordAuditEvent(
      tx,
      { tenantId: invitation.tenantId, actorProfileId: invitation.profileId, ip: input.ip, userAgent: input.userAgent },
      {
        action: "user.invitation_accepted",
        entityType: "profile",
        entityId: invitation.profileId,
        data: { invitation_id: invitation.id },
      },
    );
    return { profileId: invitation.profileId, tenantId: invitation.tenantId };
  });
}
