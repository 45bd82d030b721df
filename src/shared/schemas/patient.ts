import { z } from "zod";
import { calendarDate, isCalendarDate, text } from "./safe-input.js";
import { isValidCpf } from "../br/cpf.js";
import { isMobilePhone, normalizePhone } from "../br/phone.js";
import { optionalPhoneField, optionalText } from "./common.js";
import { UF_SIGLAS } from "../reference/ufs.js";

export * from "./patient-basics.js";
import { SEXOS } from "./patient-basics.js";

export const PATIENT_PAGE_SIZE = 20;

export const PATIENT_MESSAGES = {
  created: "Paciente cadastrado com sucesso",
  updated: "Paciente atualizado com sucesso",
  createError: "Erro ao cadastrar paciente",
  updateError: "Erro ao atualizar paciente",
  searchPlaceholder: "Buscar por nome, CPF, telefone ou email...",
  empty: "Nenhum paciente cadastrado",
  emptyHint: "Cadastre o primeiro paciente para começar a gerar termos de consentimento.",
  emptySearch: (term: string) => `Nenhum paciente encontrado para "${term}"`,
  showing: (shown: number, total: number) => `Mostrando ${shown} de ${total} pacientes`,
} as const;

const optionalCpf = (message: string) =>
  text()
    .trim()
    .optional()
    .refine((value) => !value || isValidCpf(value), message)
    .transform((value) => (value ? value.replace(/\D/g, "") : undefined));

/** An empty select ("") means "not informed". */
const blankAsMissing = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" || value === null ? undefined : value), schema);

const optionalDate = text()
  .trim()
  .optional()
  .refine((value) => !value || isCalendarDate(value), "Data inválida")
  .refine(
    (value) => !value || value <= new Date().toISOString().slice(0, 10),
    "A data de nascimento não pode estar no futuro",
  )
  .transform((value) => (value ? value : undefined));

/** New patient and edit patient (spec part 1 §5 "New patient", part 2 §3 guardian fields). */
export const patientInputSchema = z.object({
  nome: text({ error: "Informe o nome do paciente" })
    .trim()
    .min(1, "Informe o nome do paciente")
    .max(160, "Use no máximo 160 caracteres"),
  cpf: optionalCpf("CPF inválido"),
  data_nascimento: optionalDate,
  sexo: blankAsMissing(z.enum(SEXOS, { error: "Selecione uma opção válida" }).optional()),
  telefone: optionalPhoneField,
  email: text()
    .trim()
    .optional()
    .refine((value) => !value || z.email().safeParse(value).success, "E-mail inválido")
    .transform((value) => (value ? value.toLowerCase() : undefined)),
  cep: text()
    .trim()
    .optional()
    .refine((value) => !value || value.replace(/\D/g, "").length === 8, "CEP inválido")
    .transform((value) => (value ? value.replace(/\D/g, "") : undefined)),
  logradouro: optionalText(200),
  numero: optionalText(20),
  complemento: optionalText(120),
  bairro: optionalText(120),
  cidade: optionalText(120),
  uf: blankAsMissing(z.enum(UF_SIGLAS, { error: "Selecione a UF" }).optional()),
  responsavel_nome: optionalText(160),
  responsavel_cpf: optionalCpf("CPF do responsável inválido"),
  responsavel_email: text()
    .trim()
    .optional()
    .refine((value) => !value || z.email().safeParse(value).success, "E-mail do responsável inválido")
    .transform((value) => (value ? value.toLowerCase() : undefined)),
  responsavel_telefone: text()
    .trim()
    .optional()
    .refine((value) => !value || isMobilePhone(value), "Celular do responsável inválido")
    .transform((value) => (value ? normalizePhone(value) : undefined)),
  /** The patient's id in the clinic system when the form was filled from it (decision 016); kept when absent on update. */
  feegow_patient_id: z
    .number({ error: "Identificador do Feegow inválido" })
    .int("Identificador do Feegow inválido")
    .positive("Identificador do Feegow inválido")
    .max(2_147_483_647, "Identificador do Feegow inválido")
    .optional(),
});
export type PatientInput = z.input<typeof patientInputSchema>;
export type PatientData = z.output<typeof patientInputSchema>;

export const patientSchema = z.object({
  id: text(),
  nome: text(),
  cpf: text().nullable(),
  data_nascimento: text().nullable(),
  sexo: z.enum(SEXOS).nullable(),
  telefone: text().nullable(),
  email: text().nullable(),
  cep: text().nullable(),
  logradouro: text().nullable(),
  numero: text().nullable(),
  complemento: text().nullable(),
  bairro: text().nullable(),
  cidade: text().nullable(),
  uf: text().nullable(),
  /** The address in one line, for lists and documents. */
  endereco: text().nullable(),
  responsavel_nome: text().nullable(),
  responsavel_cpf: text().nullable(),
  responsavel_email: text().nullable(),
  responsavel_telefone: text().nullable(),
  contratos_count: z.number().int(),
  created_at: text(),
  updated_at: text(),
});
export type Patient = z.infer<typeof patientSchema>;

export const patientListQuerySchema = z.object({
  q: text().trim().max(100).optional(),
  sexo: z.enum(SEXOS).optional(),
  criado_de: calendarDate().optional(),
  criado_ate: calendarDate().optional(),
  menores: z.enum(["sim", "nao"]).optional(),
  /** With or without documents. */
  documentos: z.enum(["com", "sem"]).optional(),
  cursor: text().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(PATIENT_PAGE_SIZE),
});
export type PatientListQuery = z.input<typeof patientListQuerySchema>;

export const patientListSchema = z.object({
  items: z.array(patientSchema),
  /** How many patients match the search and filters. */
  total: z.number().int(),
  /** Opaque cursor of the next page, or null on the last page. */
  next_cursor: text().nullable(),
});
export type PatientList = z.infer<typeof patientListSchema>;

export const patientStatsSchema = z.object({
  total: z.number().int(),
  ativos: z.number().int(),
  inativos: z.number().int(),
  novos_mes: z.number().int(),
});
export type PatientStats = z.infer<typeof patientStatsSchema>;
