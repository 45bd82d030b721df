import { z } from "zod";
import { cpfField, emailField, optionalPhoneField, requiredText } from "./common.js";
import { checkCouncilFields, councilShape, normalizeCouncil } from "./council.js";
import { passwordField } from "./password.js";
import { text } from "./safe-input.js";
import { MESSAGES as SIGNUP_MESSAGES } from "./signup.js";

/**
 * /profile: the signed-in user edits their own data and changes their password.
 * The role-dependent council rules (councilRoleIssues) are applied with the session's role by
 * the service and by the form; the rest is here, shared by both.
 */

export const PROFILE_MESSAGES = {
  loadError: "Erro ao carregar perfil do usuário",
  saved: "Perfil atualizado",
  saveError: "Erro ao salvar o perfil",
  passwordChanged: "Senha alterada. As outras sessões abertas foram encerradas.",
  passwordError: "Erro ao alterar a senha",
  currentPasswordRequired: "Informe sua senha atual",
  identityPasswordRequired: "Informe sua senha atual para alterar o e-mail ou o CPF.",
  wrongPassword: "Senha atual incorreta.",
  samePassword: "A nova senha deve ser diferente da atual",
  confirmRequired: "Confirme a nova senha",
} as const;

export const profileUpdateSchema = z
  .object({
    nome: requiredText("Informe o nome completo", 160),
    telefone: optionalPhoneField,
    email: emailField,
    cpf: cpfField,
    /** Needed only when the e-mail or the CPF changes (re-authentication). */
    senha_atual: text().max(200, "A senha é longa demais").optional(),
    ...councilShape,
  })
  .superRefine((value, ctx) => checkCouncilFields(value, ctx))
  .transform((value) => normalizeCouncil({ ...value, senha_atual: value.senha_atual ? value.senha_atual : undefined }));
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;
export type ProfileUpdate = z.output<typeof profileUpdateSchema>;

export const passwordChangeSchema = z
  .object({
    senha_atual: text({ error: PROFILE_MESSAGES.currentPasswordRequired })
      .min(1, PROFILE_MESSAGES.currentPasswordRequired)
      .max(200, "A senha é longa demais"),
    nova_senha: passwordField,
    confirmar_senha: text({ error: PROFILE_MESSAGES.confirmRequired })
      .min(1, PROFILE_MESSAGES.confirmRequired)
      .max(200, "A senha é longa demais"),
  })
  .superRefine((value, ctx) => {
    if (value.nova_senha !== value.confirmar_senha) {
      ctx.addIssue({ code: "custom", path: ["confirmar_senha"], message: SIGNUP_MESSAGES.passwordsDiffer });
    }
    if (value.nova_senha && value.nova_senha === value.senha_atual) {
      ctx.addIssue({ code: "custom", path: ["nova_senha"], message: PROFILE_MESSAGES.samePassword });
    }
  });
export type PasswordChangeInput = z.input<typeof passwordChangeSchema>;

/** Does saving this form change who the person is (e-mail or CPF)? Then the current password is asked. */
export function changesIdentity(
  current: { email: string; cpf: string },
  next: { email: string; cpf: string },
): boolean {
  return (
    current.email.trim().toLowerCase() !== next.email.trim().toLowerCase() ||
    current.cpf.replace(/\D/g, "") !== next.cpf.replace(/\D/g, "")
  );
}
