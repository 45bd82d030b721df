import { z } from "zod";
import { isValidCpf } from "../br/cpf.js";
import { SEXOS } from "./patient.js";
import { text } from "./safe-input.js";

/** The clinic system of spec part 2 (§2 /integration, §3 tenants.settings, §7, §8); decision 016. */
export const FEEGOW_FEATURES = ["patients", "professionals", "procedures", "file_upload"] as const;
export type FeegowFeature = (typeof FEEGOW_FEATURES)[number];
export const FEEGOW_STATUSES = ["connected", "error", "disconnected"] as const;
export type FeegowStatus = (typeof FEEGOW_STATUSES)[number];

/** A PDF on its way to the patient's record in Feegow (decision 016, second step). */
export const FEEGOW_UPLOAD_STATUSES = ["pendente", "enviando", "enviado", "falhou"] as const;
export type FeegowUploadStatus = (typeof FEEGOW_UPLOAD_STATUSES)[number];
/** "recusa" and "revogacao": the sealed record of a refusal or revocation (decision 056). */
export const FEEGOW_UPLOAD_ORIGINS = ["assinado", "manual", "recusa", "revogacao"] as const;
export type FeegowUploadOrigin = (typeof FEEGOW_UPLOAD_ORIGINS)[number];

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
    description: "Importar os profissionais ativos do Feegow para a gestão de usuários (por convite).",
    soon: false,
  },
  procedures: {
    title: "Procedimentos",
    description: "Importar os procedimentos (e seus valores) cadastrados no Feegow.",
    soon: false,
  },
  file_upload: {
    title: "Envio de arquivos",
    description: "Enviar o PDF assinado de cada documento ao prontuário do paciente no Feegow.",
    soon: false,
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
    patients:
      "A busca de pacientes no Feegow está desativada. O proprietário ou um administrador pode ativá-la em Integração.",
    professionals:
      "A importação de profissionais do Feegow está desativada. O proprietário ou um administrador pode ativá-la em Integração.",
    procedures:
      "A importação de procedimentos do Feegow está desativada. O proprietário ou um administrador pode ativá-la em Integração.",
    file_upload:
      "O envio de arquivos ao Feegow está desativado. O proprietário ou um administrador pode ativá-lo em Integração.",
  } satisfies Record<FeegowFeature, string>,
  patientNotFound: "Paciente não encontrado",
  professionalsError: "Erro ao listar profissionais",
  uploadOk: "Upload realizado",
  uploadError: "Erro no upload",
  saved: "Configurações atualizadas",
  saveError: (reason: string) => `Erro ao salvar configurações: ${reason}`,
  establishmentsOnly:
    "A gestão de usuários com importação de profissionais do Feegow é exclusiva para estabelecimentos.",
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

// --- second step: imports, uploads, token removal (decision 016) ------------------------------

/** What the upload status reads as on the screens ("Feegow: Enviado"). */
export const FEEGOW_UPLOAD_STATUS_LABEL: Record<FeegowUploadStatus, string> = {
  pendente: "Pendente",
  enviando: "Enviando",
  enviado: "Enviado",
  falhou: "Falhou",
};

export const FEEGOW_IMPORT_MESSAGES = {
  professionalsImported: "Profissionais importados",
  proceduresImported: "Procedimentos importados",
  importError: "Erro ao importar",
  proceduresError: "Erro ao listar procedimentos",
  tokenRemoved: "Token removido",
  tokenRemovedDetail: "A integração foi desconectada e as funcionalidades, desligadas.",
  uploadQueued: "Envio ao Feegow na fila",
  uploadRetry: "Tentar de novo",
  documentCreatedAndSent: "Documento criado e PDF enviado ao Feegow com sucesso",
  /** Spec part 1 §8: "Gerar e Enviar PDF" went through ('Sucesso!'), or the PDF was made and its upload failed ('Aviso'). */
  generatedAndSentTitle: "Sucesso!",
  generatedAndSent: "PDF gerado e enviado ao Feegow.",
  uploadWarningTitle: "Aviso",
  uploadWarning:
    "PDF gerado com sucesso, mas houve erro no upload para o Feegow. Verifique os logs para mais detalhes.",
} as const;

/** POST …/professionals/import and …/procedures/import: some Feegow ids, or all of them. */
export const feegowImportInputSchema = z
  .object({
    ids: z
      .array(z.number({ error: "Id inválido" }).int("Id inválido").positive("Id inválido"), {
        error: "Lista de ids inválida",
      })
      .min(1, "Escolha ao menos um item")
      .max(1000, "Escolha no máximo 1000 itens")
      .optional(),
    todos: z.literal(true, { error: "Valor inválido" }).optional(),
  })
  .strict()
  .refine((input) => (input.ids === undefined) !== (input.todos === undefined), {
    message: "Informe os ids a importar ou todos: true",
  });
export type FeegowImportInput = z.input<typeof feegowImportInputSchema>;

export const FEEGOW_PROFESSIONAL_STATES = ["novo", "existente", "incompleto"] as const;
export const feegowProfessionalRowSchema = z.object({
  feegow_id: z.number().int(),
  nome: text(),
  /** "CRM 123456/SP", or null. */
  conselho: text().nullable(),
  email: text().nullable(),
  /** Masked (***.982.247-**). */
  cpf: text().nullable(),
  /** novo: can be imported; existente: a user of the clinic has this CPF; incompleto: see motivo. */
  situacao: z.enum(FEEGOW_PROFESSIONAL_STATES),
  usuario_id: text().nullable(),
  motivo: text().nullable(),
});
export type FeegowProfessionalRow = z.infer<typeof feegowProfessionalRowSchema>;
export const feegowProfessionalListSchema = z.object({ items: z.array(feegowProfessionalRowSchema) });
export type FeegowProfessionalList = z.infer<typeof feegowProfessionalListSchema>;
export const feegowProfessionalImportResultSchema = z.object({
  criados: z.number().int(),
  existentes: z.number().int(),
  /** Not imported, with the reason (no CPF, e-mail used elsewhere, missing RQE…). */
  ignorados: z.array(z.object({ feegow_id: z.number().int(), nome: text(), motivo: text() })),
  items: z.array(feegowProfessionalRowSchema),
});
export type FeegowProfessionalImportResult = z.infer<typeof feegowProfessionalImportResultSchema>;

export const FEEGOW_PROCEDURE_STATES = ["novo", "importado", "desatualizado"] as const;
export const feegowProcedureRowSchema = z.object({
  feegow_id: z.number().int(),
  nome: text(),
  valor_centavos: z.number().int().nullable(),
  /** "R$ 1.200,00", or null without a price. */
  valor: text().nullable(),
  /**
   * novo: no procedure of ours has this name; importado: ours is linked and has the same price;
   * desatualizado: ours has the name (or the link) but not the price or the link yet.
   */
  situacao: z.enum(FEEGOW_PROCEDURE_STATES),
  procedimento_id: text().nullable(),
});
export type FeegowProcedureRow = z.infer<typeof feegowProcedureRowSchema>;
export const feegowProcedureListSchema = z.object({ items: z.array(feegowProcedureRowSchema) });
export type FeegowProcedureList = z.infer<typeof feegowProcedureListSchema>;
export const feegowProcedureImportResultSchema = z.object({
  criados: z.number().int(),
  atualizados: z.number().int(),
  inalterados: z.number().int(),
  items: z.array(feegowProcedureRowSchema),
});
export type FeegowProcedureImportResult = z.infer<typeof feegowProcedureImportResultSchema>;

export const feegowUploadSchema = z.object({
  id: text(),
  contrato_id: text(),
  status: z.enum(FEEGOW_UPLOAD_STATUSES),
  origem: z.enum(FEEGOW_UPLOAD_ORIGINS),
  file_sha256: text(),
  tentativas: z.number().int(),
  /** Why the last attempt failed (pt-BR, Feegow's words when it gave any). */
  ultimo_erro: text().nullable(),
  /** Sent after an attempt whose outcome was unknown: Feegow may hold two copies (check there). */
  possivel_duplicata: z.boolean(),
  enviado_at: text().nullable(),
  created_at: text(),
  updated_at: text(),
});
export type FeegowUpload = z.infer<typeof feegowUploadSchema>;
export const feegowUploadListSchema = z.object({ items: z.array(feegowUploadSchema) });
export type FeegowUploadList = z.infer<typeof feegowUploadListSchema>;

/** GET /api/integration/feegow/uploads: the latest upload of some documents, or the clinic's by status (the future 'Avisos'). */
export const feegowUploadQuerySchema = z.object({
  /** Comma-separated document ids: the latest upload of each. */
  documentos: text()
    .max(100 * 37, "Informe no máximo 100 documentos")
    .transform((value) =>
      value
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.uuid("Documento inválido")).max(100, "Informe no máximo 100 documentos"))
    .optional(),
  status: z.enum(FEEGOW_UPLOAD_STATUSES, { error: "Status inválido" }).optional(),
  limit: z.coerce
    .number({ error: "Limite inválido" })
    .int("Limite inválido")
    .min(1, "Limite inválido")
    .max(100, "Limite inválido")
    .default(50),
});
export type FeegowUploadQuery = z.input<typeof feegowUploadQuerySchema>;

/** POST /api/documents/:id/feegow-upload: the upload, and whether this call queued it. */
export const feegowUploadRequestResultSchema = z.object({
  upload: feegowUploadSchema,
  /** False when this very file was already sent or is on its way (nothing new was queued). */
  enfileirado: z.boolean(),
});
