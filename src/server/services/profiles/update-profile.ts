import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles, tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { councilColumns, councilRoleIssues } from "../../../shared/schemas/council.js";
import type { CurrentUser } from "../../../shared/schemas/me.js";
import { changesIdentity, type ProfileUpdate } from "../../../shared/schemas/profile.js";
import { AppError } from "../../errors.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import { presentCurrentUser } from "../../presenters/profile.js";
import type { SessionUser } from "../auth/sessions.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import { cpfTaken, cpfUsedByOther, emailTaken, emailUsedByOther, uniquenessError } from "../users/uniqueness.js";
import { checkCurrentPassword } from "./check-current-password.js";
import type { SecretBox } from "../../lib/secret-box.js";

const EDITABLE = [
  "nome",
  "telefone",
  "email",
  "cpf",
  "conselho_tipo",
  "conselho_numero",
  "conselho_uf",
  "especialidades",
] as const;

export interface UpdateProfileOptions {
  db: Db;
  box: SecretBox;
  actor: SessionUser;
  input: ProfileUpdate;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * PATCH /api/profile: the signed-in user replaces their own name, phone, council and
 * specialties (sign-up's rules; the role's from the session). Changing the e-mail (which signs
 * in) or the CPF asks for the current password, keeps them unique (e-mail across the instance,
 * CPF in the clinic) and, for the e-mail, tells the previous address. Audited with the fields
 * that changed. An independent professional's account carries their name: it follows.
 */
export async function updateProfile({
  db,
  box,
  actor,
  input,
  audit,
  now = new Date(),
}: UpdateProfileOptions): Promise<CurrentUser> {
  const roleIssues = councilRoleIssues(actor.role, input);
  if (roleIssues[0]) throw new AppError("VALIDATION", roleIssues[0].message, { issues: roleIssues });
  const current = await withTenant(db, actor.tenantId, async (tx) => {
    const [row] = await tx
      .select()
      .from(profiles)
      .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, actor.profileId)))
      .limit(1);
    return row;
  });
  if (!current) throw new AppError("UNAUTHENTICATED");
  if (changesIdentity(current, input)) {
    if (!input.senha_atual) {
      throw new AppError("PROFILE_PASSWORD_REQUIRED", undefined, {
        issues: [{ path: "senha_atual", message: "Informe sua senha atual para alterar o e-mail ou o CPF." }],
      });
    }
    await checkCurrentPassword(db, actor, input.senha_atual, now);
  }
  const emailChanged = current.email.toLowerCase() !== input.email;
  if (emailChanged && (await emailUsedByOther(db, input.email, actor.profileId))) throw emailTaken();
  try {
    return await withTenant(db, actor.tenantId, async (tx) => {
      if (current.cpf !== input.cpf && (await cpfUsedByOther(tx, actor.tenantId, input.cpf, actor.profileId)))
        throw cpfTaken();
      const [profile] = await tx
        .update(profiles)
        .set({
          nome: input.nome,
          telefone: input.telefone ?? null,
          email: input.email,
          cpf: input.cpf,
          ...councilColumns(input),
          updated_at: now,
        })
        .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, actor.profileId)))
        .returning();
      if (!profile) throw new AppError("UNAUTHENTICATED");
      const [tenant] = await tx.select().from(tenants).where(eq(tenants.id, actor.tenantId)).limit(1);
      if (!tenant) throw new AppError("UNAUTHENTICATED");
      let clinic = tenant;
      if (tenant.tipo_perfil === "profissional_independente" && profile.is_proprietario && tenant.nome !== input.nome) {
        [clinic = tenant] = await tx
          .update(tenants)
          .set({ nome: input.nome, updated_at: now })
          .where(eq(tenants.id, actor.tenantId))
          .returning();
      }
      const changed = EDITABLE.filter((key) => JSON.stringify(current[key]) !== JSON.stringify(profile[key]));
      if (emailChanged) {
        await enqueueEmail(tx, box, {
          tenantId: actor.tenantId,
          to: current.email,
          subject: "Consentir — o e-mail da sua conta foi alterado",
          text:
            `Olá, ${profile.nome}.\n\n` +
            `O e-mail de acesso da sua conta no Consentir foi alterado para ${profile.email}. A partir de agora, entre com o novo endereço.\n\n` +
            `Se não foi você, fale imediatamente com o responsável pela clínica: alguém com acesso à sua conta e à sua senha fez essa alteração.`,
        });
      }
      await recordAuditEvent(
        tx,
        { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
        {
          action: "profile.updated",
          entityType: "profile",
          entityId: actor.profileId,
          data: {
            campos: changed,
            ...(emailChanged ? { email: { antes: current.email, depois: profile.email } } : {}),
          },
        },
      );
      return presentCurrentUser(profile, clinic);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw uniquenessError(error);
    throw error;
  }
}
