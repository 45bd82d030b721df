import { z } from "zod";
import { text } from "./safe-input.js";
import { CONSELHO_TIPOS } from "../reference/councils.js";
import { MAX_ESPECIALIDADES } from "../reference/limits.js";
import { UF_SIGLAS } from "../reference/ufs.js";
import type { Role } from "../permissions.js";
import { cpfField, emailField, requiredText } from "./common.js";
import { passwordField } from "./password.js";
import { checkSpecialtyRules, especialidadeEscolhidaSchema, MESSAGES as SIGNUP_MESSAGES } from "./signup.js";

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
  roleError: "Erro ao alterar a função do usuário",
  invited: (email: string) => `Convite enviado para ${email}`,
  inviteResent: (email: string) => `Novo convite enviado para ${email}`,
  inviteError: "Erro ao reenviar o convite",
  empty: "Nenhum usuário cadastrado",
  emptySearch: (q: string) => `Nenhum usuário encontrado para “${q}”`,
  searchPlaceholder: "Buscar por nome, e-mail ou CPF...",
} as const;

/** The roles the owner may give (saas_admin is the platform's, never a clinic's). */
export const ASSIGNABLE_ROLES = ["profissional", "pro_saude", "admin", "atendente", "juridico", "auditor"] as const satisfies readonly Role[];
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

/** Roles that sign as health professionals: they need a council registration. */
export const CARE_ROLES: readonly Role[] = ["profissional", "pro_saude"];
export const needsCouncil = (role: string): boolean => CARE_ROLES.includes(role as Role);

/** Days an invitation link stays valid. */
export const INVITATION_DAYS = 7;

export const USER_PAGE_SIZE = 20;

const roleField = z.enum(ASSIGNABLE_ROLES, { error: "Selecione a função" });

/** "" from an empty select becomes undefined. */
const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

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
    conselho_tipo: z.preprocess(blankToUndefined, z.enum(CONSELHO_TIPOS, { error: "Selecione o conselho" }).optional()),
    conselho_numero: text().trim().max(20, "Use no máximo 20 caracteres").optional(),
    conselho_uf: z.preprocess(blankToUndefined, z.enum(UF_SIGLAS, { error: "Selecione a UF" }).optional()),
    especialidades: z.array(especialidadeEscolhidaSchema).max(MAX_ESPECIALIDADES, SIGNUP_MESSAGES.tooManySpecialties).default([]),
  })
  .superRefine((value, ctx) => {
    if (value.acesso === "senha") {
      const password = passwordField.safeParse(value.password ?? "");
      if (!password.success) {
        ctx.addIssue({ code: "custom", path: ["password"], message: password.error.issues[0]?.message ?? "Informe a senha" });
      }
    }
    if (needsCouncil(value.role) && !value.conselho_tipo) {
      ctx.addIssue({ code: "custom", path: ["conselho_tipo"], message: "Selecione o conselho" });
    }
    if (!value.conselho_tipo) return;
    if (!value.conselho_numero) {
      ctx.addIssue({ code: "custom", path: ["conselho_numero"], message: "Informe o número do conselho" });
    }
    if (!value.conselho_uf) ctx.addIssue({ code: "custom", path: ["conselho_uf"], message: "Selecione a UF" });
    checkSpecialtyRules({ conselho_tipo: value.conselho_tipo, especialidades: value.especialidades }, ctx, {
      specialtyRequiredMessage: USER_MESSAGES.specialtyRequired,
      // Spec part 2 §5: "for a non-admin user with council CRM, each chosen specialty needs an RQE".
      rqeRequired: value.conselho_tipo === "CRM" && value.role !== "admin",
    });
  })
  .transform((value) => ({
    ...value,
    password: value.acesso === "senha" ? value.password : undefined,
    conselho_numero: value.conselho_tipo ? value.conselho_numero : undefined,
    conselho_uf: value.conselho_tipo ? value.conselho_uf : undefined,
    // No council, no specialties; blank entries of the form are dropped.
    especialidades: value.conselho_tipo ? value.especialidades.filter((e) => e.especialidade !== "") : [],
  }));
export type UserCreateInput = z.input<typeof userCreateSchema>;
export type UserCreate = z.output<typeof userCreateSchema>;

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
  especialidades: z.array(z.object({ especialidade: text(), areas_atuacao: z.array(text()), rqe: text().nullable().optional() })),
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
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: SIGNUP_MESSAGES.passwordsDiffer });
export type InvitationAcceptInput = z.input<typeof invitationAcceptSchema>;
