import { z } from "zod";
import { DOCUMENT_VALIDITY_DAYS } from "./document.js";
import { text } from "./safe-input.js";
import { optionalPhoneField, optionalText } from "./common.js";
import { addressShape, establishmentDataShape } from "./signup.js";
import { isValidCep } from "../br/cep.js";
import { UF_SIGLAS } from "../reference/ufs.js";

/**
 * Configurações → the clinic's data (spec part 2 §8 "Settings", §9): an establishment's
 * razão social, nome fantasia, CNPJ, CNES, address and phone, with sign-up's rules; an independent
 * professional's phone and (optional) office address; and, for both, how many days a new
 * document stays open for signature (spec: 7).
 */

export const SETTINGS_MESSAGES = {
  saved: "Configurações atualizadas",
  saveError: (reason: string) => `Erro ao salvar configurações: ${reason}`,
  noTenant: "ID do tenant não encontrado. Tente recarregar a página.",
  accessDenied: "Acesso negado",
  managersOnly: "Apenas o proprietário ou um administrador pode alterar as configurações da clínica.",
  loadError: "Não foi possível carregar as configurações.",
} as const;

export const MIN_VALIDITY_DAYS = 1;
export const MAX_VALIDITY_DAYS = 90;
const validityMessage = `Informe um prazo entre ${MIN_VALIDITY_DAYS} e ${MAX_VALIDITY_DAYS} dias`;

export const validityDaysField = z
  .number({ error: validityMessage })
  .int(validityMessage)
  .min(MIN_VALIDITY_DAYS, validityMessage)
  .max(MAX_VALIDITY_DAYS, validityMessage);

/** The days a new document stays open: the clinic's setting, or the spec's 7 when none (or a bad value) is stored. */
export function documentValidityDays(
  settings: { documentos?: { validade_dias?: unknown } } | null | undefined,
): number {
  const stored = settings?.documentos?.validade_dias;
  return validityDaysField.safeParse(stored).success ? (stored as number) : DOCUMENT_VALIDITY_DAYS;
}

const establishmentSettingsSchema = z.object({
  tipo_perfil: z.literal("estabelecimento"),
  ...establishmentDataShape,
  ...addressShape,
  telefone: optionalPhoneField,
  validade_documento_dias: validityDaysField,
});

/** An independent professional's office: every address field optional, a CEP given must be valid. */
const optionalCep = text()
  .trim()
  .optional()
  .refine((value) => !value || isValidCep(value), "CEP inválido")
  .transform((value) => (value ? value.replace(/\D/g, "") : undefined));
const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

const professionalSettingsSchema = z.object({
  tipo_perfil: z.literal("profissional_independente"),
  cep: optionalCep,
  estado: z.preprocess(blankToUndefined, z.enum(UF_SIGLAS, { error: "Selecione a UF" }).optional()),
  cidade: optionalText(120),
  bairro: optionalText(120),
  logradouro: optionalText(),
  numero: optionalText(20),
  complemento: optionalText(120),
  telefone: optionalPhoneField,
  validade_documento_dias: validityDaysField,
});

export const clinicSettingsInputSchema = z.discriminatedUnion(
  "tipo_perfil",
  [establishmentSettingsSchema, professionalSettingsSchema],
  {
    error: "Tipo de conta inválido",
  },
);
export type ClinicSettingsInput = z.input<typeof clinicSettingsInputSchema>;
export type ClinicSettingsData = z.output<typeof clinicSettingsInputSchema>;
export type EstablishmentSettingsInput = z.input<typeof establishmentSettingsSchema>;
export type ProfessionalSettingsInput = z.input<typeof professionalSettingsSchema>;
export { establishmentSettingsSchema, professionalSettingsSchema };

export const clinicSettingsSchema = z.object({
  tipo_perfil: z.enum(["estabelecimento", "profissional_independente"]),
  tipo_estabelecimento: text().nullable(),
  nome: text(),
  razao_social: text().nullable(),
  nome_fantasia: text().nullable(),
  cnpj: text().nullable(),
  cnes: text().nullable(),
  cep: text().nullable(),
  estado: text().nullable(),
  cidade: text().nullable(),
  bairro: text().nullable(),
  logradouro: text().nullable(),
  numero: text().nullable(),
  complemento: text().nullable(),
  telefone: text().nullable(),
  validade_documento_dias: z.number().int(),
});
export type ClinicSettings = z.infer<typeof clinicSettingsSchema>;
