import { z } from "zod";
import type { FieldIssue } from "../errors.js";
import { CONSELHO_TIPOS, type ConselhoTipo } from "../reference/councils.js";
import { MAX_ESPECIALIDADES } from "../reference/limits.js";
import { UF_SIGLAS } from "../reference/ufs.js";
import type { Role } from "../permissions.js";
import { text } from "./safe-input.js";
import { checkSpecialtyRules, especialidadeEscolhidaSchema, MESSAGES as SIGNUP_MESSAGES } from "./signup.js";

/**
 * A team member's council registration: the add-user and edit-user dialogs and the
 * /profile form. The specialty rules are sign-up's (checkSpecialtyRules); what depends on the
 * person's role — a council for care roles, an RQE per CRM specialty outside the administration
 * (spec part 2 §5) — is `councilRoleIssues`, so /profile can apply it with the session's role.
 */

/** Roles that sign as health professionals: they need a council registration. */
export const CARE_ROLES: readonly Role[] = ["profissional", "pro_saude"];
export const needsCouncil = (role: string): boolean => CARE_ROLES.includes(role as Role);

/** "" from an empty select becomes undefined. */
const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

export const councilShape = {
  conselho_tipo: z.preprocess(blankToUndefined, z.enum(CONSELHO_TIPOS, { error: "Selecione o conselho" }).optional()),
  conselho_numero: text().trim().max(20, "Use no máximo 20 caracteres").optional(),
  conselho_uf: z.preprocess(blankToUndefined, z.enum(UF_SIGLAS, { error: "Selecione a UF" }).optional()),
  especialidades: z
    .array(especialidadeEscolhidaSchema)
    .max(MAX_ESPECIALIDADES, SIGNUP_MESSAGES.tooManySpecialties)
    .default([]),
};

export interface CouncilValues {
  conselho_tipo?: ConselhoTipo | undefined;
  conselho_numero?: string | undefined;
  conselho_uf?: string | undefined;
  especialidades: { especialidade: string; areas_atuacao: string[]; rqe: string | null }[];
}

/** The checks that do not depend on the role: a council given is given in full, with sign-up's specialty rules. */
export function checkCouncilFields(value: CouncilValues, ctx: z.RefinementCtx): void {
  if (!value.conselho_tipo) return;
  if (!value.conselho_numero)
    ctx.addIssue({ code: "custom", path: ["conselho_numero"], message: "Informe o número do conselho" });
  if (!value.conselho_uf) ctx.addIssue({ code: "custom", path: ["conselho_uf"], message: "Selecione a UF" });
  checkSpecialtyRules({ conselho_tipo: value.conselho_tipo, especialidades: value.especialidades }, ctx, {
    specialtyRequiredMessage: SIGNUP_MESSAGES.specialtyRequiredEstablishment,
    rqeRequired: false,
  });
}

/**
 * What the role adds: care roles need a council ('Selecione o conselho'); a CRM registration
 * outside the administration needs an RQE per specialty (spec part 2 §5).
 */
export function councilRoleIssues(role: string, value: CouncilValues): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (needsCouncil(role) && !value.conselho_tipo)
    issues.push({ path: "conselho_tipo", message: "Selecione o conselho" });
  if (value.conselho_tipo === "CRM" && role !== "admin") {
    value.especialidades.forEach((entry, index) => {
      if (entry.especialidade !== "" && !entry.rqe)
        issues.push({ path: `especialidades.${index}.rqe`, message: SIGNUP_MESSAGES.rqeRequired });
    });
  }
  return issues;
}

/** Adds `councilRoleIssues` to a zod refinement. */
export function addCouncilRoleIssues(role: string, value: CouncilValues, ctx: z.RefinementCtx): void {
  for (const issue of councilRoleIssues(role, value)) {
    ctx.addIssue({
      code: "custom",
      path: issue.path.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      message: issue.message,
    });
  }
}

/** No council, no number, UF nor specialties; blank specialty entries of the form are dropped. */
export function normalizeCouncil<T extends CouncilValues>(value: T): T {
  return {
    ...value,
    conselho_numero: value.conselho_tipo ? value.conselho_numero : undefined,
    conselho_uf: value.conselho_tipo ? value.conselho_uf : undefined,
    especialidades: value.conselho_tipo ? value.especialidades.filter((e) => e.especialidade !== "") : [],
  };
}

/** The profile columns a council registration fills (the first specialty also fills especialidade/rqe, decision 003). */
export function councilColumns(value: CouncilValues) {
  const first = value.especialidades[0];
  return {
    conselho_tipo: value.conselho_tipo ?? null,
    conselho_numero: value.conselho_numero ?? null,
    conselho_uf: value.conselho_uf ?? null,
    crm: value.conselho_tipo === "CRM" ? (value.conselho_numero ?? null) : null,
    especialidades: value.especialidades,
    especialidade: first?.especialidade ?? null,
    rqe: first?.rqe ?? null,
  };
}
