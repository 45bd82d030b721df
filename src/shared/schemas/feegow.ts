import { z } from "zod";
import { isValidCpf } from "../br/cpf.js";
import { SEXOS } from "./patient.js";
import { text } from "./safe-input.js";

/** The clinic system of spec part 2 (§2 /integration, §3 tenants.settings, §7, §8); decision 016. */
export const FEEGOW_FEATURES = ["patients", "professionals", "procedures", "file_upload"] as const;
export type FeegowFeature = (typeof FEEGOW_FEATURES)[number];
export const FEEGOW_STATUSES = ["connected", "error", "disconnected"] as const;
export type FeegowStatus = (typeof FEEGOW_STATUSES)[number];

export const FEEGOW_STATUS_LABEL: Record<FeegowStatus, string> = {
  connected: "Conectado",
  error: "Erro",
  disconnected: "Desconectado",
};

export const FEEGOW_FEATURE_LABEL: Record<FeegowFeature, { title: string; description: string; soon: boolean }> = {
  patients: {
    title: "Pacientes",
    description: "Buscar pacientes no Feegow pelo CPF e preencher o cadastro de novo paciente.",
    soon: false,
  },
  professionals: {
    title: "Profissionais",
    description: "Importar os profissionais ativos do Feegow para a gestão de usuários.",
    soon: true,
  },
  procedures: {
    title: "Procedimentos",
    description: "Importar os procedimentos (e seus valores) cadastrados no Feegow.",
    soon: true,
  },
  file_upload: {
    title: "Envio de arquivos",
    description: "Enviar o PDF assinado de cada documento ao prontuário do paciente no Feegow.",
    soon: true,
  },
};

/** Spec §8 "Integration" and "Patient search" (pt-BR, as given), and what the screen says. */
export const FEEGOW_MESSAGES = {
  tokenRequired: "Digite o token do Feegow",
  tokenMissing: "Token não configurado",
  connected: "Conexão estabelecida",
  connectedDetail: "Token Feegow validado com sucesso",
  connectionError: "Erro na conexão",
  connectionErrorDetail: "Erro ao conectar com Feegow",
  disabled: "Integração desabilitada",
  disabledDetail: {
    patients: "A busca de pacientes no Feegow está desativada. O proprietário ou um administrador pode ativá-la em Integração.",
    professionals: "A importação de profissionais do Feegow está desativada. O proprietário ou um administrador pode ativá-la em Integração.",
    procedures: "A importação de procedimentos do Feegow está desativada. O proprietário ou um administrador pode ativá-la em Integração.",
    file_upload: "O envio de arquivos ao Feegow está desativado. O proprietário ou um administrador pode ativá-lo em Integração.",
  } satisfies Record<FeegowFeature, string>,
  patientNotFound: "Paciente não encontrado",
  professionalsError: "Erro ao listar profissionais",
  uploadOk: "Upload realizado",
  uploadError: "Erro no upload",
  saved: "Configurações atualizadas",
  saveError: (reason: string) => `Erro ao salvar configurações: ${reason}`,
  establishmentsOnly: "A gestão de usuários com importação de profissionais do Feegow é exclusiva para estabelecimentos.",
} as const;

const featureFlags = z.object({
  patients: z.boolean(),
  professionals: z.boolean(),
  procedures: z.boolean(),
  file_upload: z.boolean(),
});
export type FeegowFeatureFlags = z.infer<typeof featureFlags>;

/** GET /api/integration/feegow: never the token, only whether one is saved and its last four characters. */
export const feegowSettingsSchema = z.object({
  configurado: z.boolean(),
  /** "••••1234", or null without a token. */
  token_mascarado: text().nullable(),
  status: z.enum(FEEGOW_STATUSES),
  integrations: featureFlags,
  last_sync: text().nullable(),
  /** Why the last connection test failed (pt-BR), while status is error. */
  ultimo_erro: text().nullable(),
  updated_at: text().nullable(),
});
export type FeegowSettings = z.infer<typeof feegowSettingsSchema>;

/** PUT /api/integration/feegow: a new token, and/or switches to change. */
export const feegowSettingsInputSchema = z
  .object({
    token: text({ error: FEEGOW_MESSAGES.tokenRequired })
      .trim()
      .min(1, FEEGOW_MESSAGES.tokenRequired)
      .max(2000, "Token longo demais")
      .refine((value) => !/\s/.test(value), "O token não pode conter espaços")
      .optional(),
    integrations: featureFlags.partial().strict().optional(),
  })
  .strict()
  .refine((input) => input.token !== undefined || input.integrations !== undefined, {
    message: "Informe o token ou as integrações a alterar",
  });
export type FeegowSettingsInput = z.input<typeof feegowSettingsInputSchema>;

/** POST /api/integration/feegow/test: the result, and the settings as they are now. */
export const feegowTestResultSchema = z.object({
  ok: z.literal(true),
  message: text(),
  settings: feegowSettingsSchema,
});

/** GET /api/integration/feegow/features: what any staff member may use now (switch on and a token saved). */
export const feegowFeaturesSchema = featureFlags;

export const feegowPatientSearchInputSchema = z.object({
  cpf: text({ error: "Informe o CPF" })
    .trim()
    .min(1, "Informe o CPF")
    .refine((value) => isValidCpf(value), "CPF inválido")
    .transform((value) => value.replace(/\D/g, "")),
});
export type FeegowPatientSearchInput = z.input<typeof feegowPatientSearchInputSchema>;

/** Spec §3 "Integration patient result", shaped for the new-patient form. Text fields are "" when Feegow has nothing. */
export const feegowPatientSchema = z.object({
  feegow_patient_id: z.number().int().positive(),
  nome: text(),
  cpf: text(),
  telefone: text().nullable(),
  email: text().nullable(),
  /** YYYY-MM-DD. */
  data_nascimento: text().nullable(),
  sexo: z.enum(SEXOS).nullable(),
  endereco: z.object({
    cep: text().nullable(),
    logradouro: text().nullable(),
    numero: text().nullable(),
    complemento: text().nullable(),
    bairro: text().nullable(),
    cidade: text().nullable(),
    uf: text().nullable(),
  }),
});
export type FeegowPatient = z.infer<typeof feegowPatientSchema>;
