import { z } from "zod";
import { ACTIONS, can, type PermissionSubject, type Role } from "../permissions.js";
import { requiredText } from "./common.js";
import { calendarDate } from "./safe-input.js";

/**
 * API keys (decision 058). A key acts as one role of the staff permission table, never as the
 * clinic's owner and never as the platform's administrator.
 */
export const API_KEY_ROLES = [
  "profissional",
  "admin",
  "atendente",
  "juridico",
  "auditor",
  "pro_saude",
] as const satisfies readonly Role[];
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

/** `csk_live_` + 43 base64url characters (256 random bits). */
export const API_KEY_PREFIX = "csk_live_";
export const API_KEY_PATTERN = /^csk_live_[A-Za-z0-9_-]{43}$/;
/** How many characters of the random part the list shows (the visible prefix). */
export const API_KEY_VISIBLE_CHARS = 8;

export const API_KEY_STATUSES = ["ativa", "expirada", "revogada"] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];
export const API_KEY_STATUS_LABEL: Record<ApiKeyStatus, string> = {
  ativa: "Ativa",
  expirada: "Expirada",
  revogada: "Revogada",
};

/**
 * "Never above its creator's": every action the key's role may do (as a non-owner), the creator
 * may do too. A subset of permissions, not a rank: the roles are not a ladder (an administrator
 * lacks a professional's private procedures and own e-CPF, so cannot mint a professional's key).
 */
export function roleWithinCreator(creator: PermissionSubject, role: string): boolean {
  const key = { role, isOwner: false };
  return ACTIONS.every((action) => !can(key, action) || can(creator, action));
}

export const API_KEY_MESSAGES = {
  nameRequired: "Informe um nome para a chave",
  roleRequired: "Selecione o papel da chave",
  expiryInvalid: "Data de validade inválida",
  expiryPast: "A validade deve ser hoje ou uma data futura",
};

export const apiKeyInputSchema = z.object({
  nome: requiredText(API_KEY_MESSAGES.nameRequired, 100),
  role: z.enum(API_KEY_ROLES, { error: API_KEY_MESSAGES.roleRequired }),
  /** The last day the key works (São Paulo calendar); absent or null: no expiry. */
  expira_em: calendarDate(API_KEY_MESSAGES.expiryInvalid).nullable().optional(),
});
export type ApiKeyInput = z.infer<typeof apiKeyInputSchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  nome: z.string(),
  role: z.string(),
  /** The visible start of the key, e.g. `csk_live_ab12cd34`. */
  prefixo: z.string(),
  criada_por: z.object({ id: z.string(), nome: z.string() }),
  criada_em: z.string(),
  ultimo_uso_em: z.string().nullable(),
  expira_em: z.string().nullable(),
  revogada_em: z.string().nullable(),
  status: z.enum(API_KEY_STATUSES),
});
export type ApiKeyView = z.infer<typeof apiKeySchema>;

export const createdApiKeySchema = z.object({
  chave: apiKeySchema,
  /** The whole key: shown this once, never stored (only its SHA-256). */
  segredo: z.string(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
