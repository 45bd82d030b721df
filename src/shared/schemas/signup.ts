import { z } from "zod";
import { text } from "./safe-input.js";
import { CONSELHO_TIPOS, type ConselhoTipo } from "../reference/councils.js";
import { MAX_AREAS_POR_ESPECIALIDADE, MAX_ESPECIALIDADES } from "../reference/limits.js";
import { areasFor, findSpecialty, requiresRqe, requiresSpecialty } from "../reference/specialties.js";
import {
  cepField,
  cnpjField,
  cpfField,
  emailField,
  optionalCnesField,
  optionalPhoneField,
  optionalText,
  requiredText,
  ufField,
} from "./common.js";
import { passwordField } from "./password.js";

export const TIPOS_ESTABELECIMENTO = ["clinica", "consultorio_cnpj", "policlinica", "unidade_hospitalar"] as const;
export type TipoEstabelecimento = (typeof TIPOS_ESTABELECIMENTO)[number];
export const TIPO_ESTABELECIMENTO_LABEL: Record<TipoEstabelecimento, string> = {
  clinica: "Clínica",
  consultorio_cnpj: "Consultório com CNPJ",
  policlinica: "Policlínica",
  unidade_hospitalar: "Unidade hospitalar",
};

export const MESSAGES = {
  passwordsDiffer: "As senhas não coincidem",
  rqeRequired: "RQE é obrigatório para cada especialidade do CRM",
  specialtyRequiredEstablishment: "Selecione pelo menos uma especialidade",
  specialtyRequiredProfessional: "Pelo menos uma especialidade é obrigatória",
  tooManySpecialties: "Máximo de 2 especialidades permitidas",
  tooManyAreas: "Máximo de 3 áreas de atuação por especialidade",
  establishmentTypeRequired: "Selecione o tipo de estabelecimento",
  success: "Conta criada com sucesso! Você já pode fazer login.",
} as const;

export const especialidadeEscolhidaSchema = z.object({
  especialidade: text().trim().max(80),
  areas_atuacao: z.array(text().trim().max(80)).max(MAX_AREAS_POR_ESPECIALIDADE, MESSAGES.tooManyAreas).default([]),
  rqe: text()
    .trim()
    .max(20)
    .optional()
    .nullable()
    .transform((value) => (value ? value : null)),
});
export type EspecialidadeEscolhidaInput = z.input<typeof especialidadeEscolhidaSchema>;

/** Step 1 of the establishment wizard. */
export const establishmentDataShape = {
  tipo_estabelecimento: z.enum(TIPOS_ESTABELECIMENTO, { error: MESSAGES.establishmentTypeRequired }),
  razao_social: requiredText("Informe a razão social"),
  nome_fantasia: optionalText(),
  cnpj: cnpjField,
  cnes: optionalCnesField,
};

/** Step 2 of the establishment wizard. */
export const addressShape = {
  cep: cepField,
  estado: ufField,
  cidade: requiredText("Informe a cidade", 120),
  bairro: requiredText("Informe o bairro", 120),
  logradouro: requiredText("Informe o logradouro"),
  numero: requiredText("Informe o número", 20),
  complemento: optionalText(120),
};

/** The person: establishment step 3 and the whole independent-professional form. */
export const professionalShape = {
  nome: requiredText("Informe o nome completo", 160),
  cpf: cpfField,
  email: emailField,
  telefone: optionalPhoneField,
  password: passwordField,
  confirmPassword: text({ error: "Confirme a senha" }).min(1, "Confirme a senha"),
  conselho_tipo: z.enum(CONSELHO_TIPOS, { error: "Selecione o conselho" }),
  conselho_numero: requiredText("Informe o número do conselho", 20),
  conselho_uf: ufField,
  especialidades: z
    .array(especialidadeEscolhidaSchema)
    .max(MAX_ESPECIALIDADES, MESSAGES.tooManySpecialties)
    .default([]),
};

interface ProfessionalFields {
  password: string;
  confirmPassword: string;
  conselho_tipo: ConselhoTipo;
  especialidades: { especialidade: string; areas_atuacao: string[]; rqe: string | null }[];
}

/** The cross-field rules of spec part 1 §5, shared by both forms. */
export function checkProfessionalRules(specialtyRequiredMessage: string) {
  return (value: ProfessionalFields, ctx: z.RefinementCtx) => {
    if (value.password !== value.confirmPassword) {
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: MESSAGES.passwordsDiffer });
    }
    checkSpecialtyRules(value, ctx, { specialtyRequiredMessage, rqeRequired: requiresRqe(value.conselho_tipo) });
  };
}

/**
 * The council's specialty rules (spec part 1 §5, part 2 §5), shared by sign-up and the clinic's
 * add-user dialog: CRM and CRO need one specialty; each must belong to the council, once; its areas
 * to the specialty; an RQE where `rqeRequired` (CRM — except for administrators added by the owner).
 */
export function checkSpecialtyRules(
  value: Pick<ProfessionalFields, "conselho_tipo" | "especialidades">,
  ctx: z.RefinementCtx,
  options: { specialtyRequiredMessage: string; rqeRequired: boolean },
): void {
  const { specialtyRequiredMessage } = options;
  const chosen = value.especialidades.filter((e) => e.especialidade !== "");
  if (requiresSpecialty(value.conselho_tipo) && chosen.length === 0) {
    ctx.addIssue({ code: "custom", path: ["especialidades"], message: specialtyRequiredMessage });
  }
  const seen = new Set<string>();
  value.especialidades.forEach((entry, index) => {
    if (entry.especialidade === "") return;
    if (!findSpecialty(value.conselho_tipo, entry.especialidade)) {
      ctx.addIssue({
        code: "custom",
        path: ["especialidades", index, "especialidade"],
        message: "Especialidade não pertence ao conselho escolhido",
      });
      return;
    }
    if (seen.has(entry.especialidade)) {
      ctx.addIssue({
        code: "custom",
        path: ["especialidades", index, "especialidade"],
        message: "Especialidade repetida",
      });
    }
    seen.add(entry.especialidade);
    if (options.rqeRequired && !entry.rqe) {
      ctx.addIssue({ code: "custom", path: ["especialidades", index, "rqe"], message: MESSAGES.rqeRequired });
    }
    const allowed = new Set(areasFor(value.conselho_tipo, entry.especialidade).map((a) => a.codigo));
    if (entry.areas_atuacao.some((area) => !allowed.has(area))) {
      ctx.addIssue({
        code: "custom",
        path: ["especialidades", index, "areas_atuacao"],
        message: "Área de atuação não pertence à especialidade",
      });
    }
  });
}

export const establishmentDataSchema = z.object(establishmentDataShape);
export const addressSchema = z.object(addressShape);
export const establishmentOwnerSchema = z
  .object(professionalShape)
  .superRefine(checkProfessionalRules(MESSAGES.specialtyRequiredEstablishment));

export const establishmentSignUpSchema = z
  .object({
    profile_type: z.literal("estabelecimento"),
    ...establishmentDataShape,
    ...addressShape,
    ...professionalShape,
  })
  .superRefine(checkProfessionalRules(MESSAGES.specialtyRequiredEstablishment));

export const professionalSignUpSchema = z
  .object({ profile_type: z.literal("profissional_independente"), ...professionalShape })
  .superRefine(checkProfessionalRules(MESSAGES.specialtyRequiredProfessional));

export const signUpSchema = z.discriminatedUnion("profile_type", [establishmentSignUpSchema, professionalSignUpSchema]);

export type SignUpInput = z.input<typeof signUpSchema>;
export type SignUp = z.output<typeof signUpSchema>;
export type EstablishmentSignUp = z.output<typeof establishmentSignUpSchema>;
export type ProfessionalSignUp = z.output<typeof professionalSignUpSchema>;
