import { z } from "zod";
import { text } from "./safe-input.js";
import type { Role } from "../permissions.js";
import { cpfField, emailField, requiredText } from "./common.js";
import { addCouncilRoleIssues, checkCouncilFields, councilShape, normalizeCouncil } from "./council.js";
import { passwordField } from "./password.js";
import { MESSAGES as SIGNUP_MESSAGES } from "./signup.js";

/**
 * User management (/users, spec part 2 §2, §5, §6, §8; decision 017): what the owner of an
 * establishment sends and receives. One schema for the add-user dialog and the route.
 */

/** The wording of spec part 2 §5 and §8 (Users), and ours beside it. */
export const USER_MESSAGES = {
  accessDenied: "Acesso negado",
  ownersOnly: "Apenas proprietários podem gerenciar usuários",
  establishmentsOnly:
    "A gestão de usuários é exclusiva de estabelecimentos (clínicas, consultórios com CNPJ, policlínicas e unidades hospitalares). Uma conta de profissional independente tem um único usuário.",
  loadError: "Erro ao carregar usuários",
  added: "Usuário adicionado com sucesso",
  addError: "Erro ao adicionar usuário",
  statusError: "Erro ao alterar status do usuário",
  requiredFields: "Preencha todos os campos obrigatórios",
  rqeRequired: SIGNUP_MESSAGES.rqeRequired,
  specialtyRequired: SIGNUP_MESSAGES.specialtyRequiredEstablishment,
  activated: "Usuário ativado",
  deactivated: "Usuário desativado. As sessões abertas dele foram encerradas.",
  roleChanged: "Função alterada com sucesso",
  updated: "Dados do usuário atualizados",
  updateError: "Erro ao salvar os dados do usuário",
  roleError: "Erro ao alterar a função do usuário",
  invited: (email: string) => `Convite enviado para ${email}`,
  inviteResent: (email: string) => `Novo convite enviado para ${email}`,
  inviteError: "Erro ao reenviar o convite",
  empty: "Nenhum usuário cadastrado",
  emptySearch: (q: string) => `Nenhum usuário encontrado para “${q}”`,
  searchPlaceholder: "Buscar por nome, e-mail ou CPF...",
} as const;

/** The roles the owner may give (saas_admin is the platform's, never a clinic's). */
export const ASSIGNABLE_ROLES = [
  "profissional",
  "pro_saude",
  "admin",
  "atendente",
  "juridico",
  "auditor",
] as const satisfies readonly Role[];
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

export { CARE_ROLES, needsCouncil } from "./council.js";

/** Days an invitation link stays valid. */
export const INVITATION_DAYS = 7;

export const USER_PAGE_SIZE = 20;

const roleField = z.enum(ASSIGNABLE_ROLES, { error: "Selecione a função" });

export const userCreateSchema = z
  .object({
    nome: requiredText("Informe o nome completo", 160),
    email: emailField,
    cpf: cpfField,
    role: roleField,
    /** "senha": the owner types the password; "convite": an e-mailed link lets the person choose it. */
    acesso: z.enum(["senha", "convite"], { error: "Escolha como o usuário vai acessar" }).default("senha"),
    /** Checked below (passwordField) only when acesso is "senha". */
    password: text().max(200, "A senha é longa demais").optional(),
    ...councilShape,
  })
  .superRefine((value, ctx) => {
    if (value.acesso === "senha") {
      const password = passwordField.safeParse(value.password ?? "");
      if (!password.success) {
        ctx.addIssue({
          code: "custom",
          path: ["password"],
          message: password.error.issues[0]?.message ?? "Informe a senha",
        });
      }
    }
    checkCouncilFields(value, ctx);
    addCouncilRoleIssues(value.role, value, ctx);
  })
  .transform((value) =>
    normalizeCouncil({ ...value, password: value.acesso === "senha" ? value.password : undefined }),
  );
export type UserCreateInput = z.input<typeof userCreateSchema>;
export type UserCreate = z.output<typeof userCreateSchema>;

/**
 * The owner edits a user's name, role and council (the edit-user dialog). The owner's own row
 * keeps its role (USER_OWNER_PROTECTED); e-mail and CPF are the person's, changed on /profile.
 */
export const userUpdateSchema = z
  .object({
    nome: requiredText("Informe o nome completo", 160),
    role: roleField,
    ...councilShape,
  })
  .superRefine((value, ctx) => {
    checkCouncilFields(value, ctx);
    addCouncilRoleIssues(value.role, value, ctx);
  })
  .transform((value) => normalizeCouncil(value));
export type UserUpdateInput = z.input<typeof userUpdateSchema>;
export type UserUpdate = z.output<typeof userUpdateSchema>;

export const userStatusSchema = z.object({ is_active: z.boolean({ error: "Informe se o usuário fica ativo" }) });
export const userRoleSchema = z.object({ role: roleField });

export const userListQuerySchema = z.object({
  q: text().trim().max(100, "Use no máximo 100 caracteres").optional(),
  cursor: text().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(USER_PAGE_SIZE),
});
export type UserListQuery = z.input<typeof userListQuerySchema>;

export const userSchema = z.object({
  id: text(),
  nome: text(),
  email: text(),
  cpf: text(),
  role: text(),
  is_proprietario: z.boolean(),
  is_active: z.boolean(),
  conselho_tipo: text().nullable(),
  conselho_numero: text().nullable(),
  conselho_uf: text().nullable(),
  especialidades: z.array(
    z.object({ especialidade: text(), areas_atuacao: z.array(text()), rqe: text().nullable().optional() }),
  ),
  /** An invitation not accepted yet: still valid ("pendente") or past its 7 days ("expirado"). */
  convite: z.object({ status: z.enum(["pendente", "expirado"]), expires_at: text() }).nullable(),
  created_at: text(),
});
export type User = z.infer<typeof userSchema>;

export const userListSchema = z.object({
  items: z.array(userSchema),
  total: z.number().int(),
  next_cursor: text().nullable(),
});
export type UserList = z.infer<typeof userListSchema>;

/** The invitation page's first call: who is invited, to which clinic (the token travels in a body, never a URL we log). */
export const invitationLookupSchema = z.object({ token: text().min(20, "Link inválido").max(200, "Link inválido") });
export const invitationInfoSchema = z.object({
  nome: text(),
  email: text(),
  clinica: text(),
  expires_at: text(),
});
export type InvitationInfo = z.infer<typeof invitationInfoSchema>;

export const invitationAcceptSchema = z
  .object({
    token: text().min(20, "Link inválido").max(200, "Link inválido"),
    password: passwordField,
    confirmPassword: text({ error: "Confirme a senha" }).min(1, "Confirme a senha"),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ["confirmPassword"],
    message: SIGNUP_MESSAGES.passwordsDiffer,
  });
export type InvitationAcceptInput = z.input<typeof invitationAcceptSchema>;
