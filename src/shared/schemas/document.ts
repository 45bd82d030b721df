import { z } from "zod";
import { A_ROGO_MOTIVOS } from "./a-rogo.js";
import { choiceRecordSchema } from "./choices.js";
import { calendarDate, text } from "./safe-input.js";
import { optionalText } from "./common.js";

export * from "./document-basics.js";
import { DOCUMENT_MESSAGES, DOCUMENT_PAGE_SIZE, DOCUMENT_STATUSES, MAX_SELECTED_ITEMS } from "./document-basics.js";

const uuidRequired = z.uuid({ error: DOCUMENT_MESSAGES.requiredFields });
const idList = z
  .array(z.uuid("Item inválido"), { error: "Lista de itens inválida" })
  .max(MAX_SELECTED_ITEMS, `Selecione no máximo ${MAX_SELECTED_ITEMS} itens`)
  .default([])
  .transform((ids) => [...new Set(ids)]);
const customText = (max: number) =>
  text({ error: "Texto inválido" })
    .max(max, `Use no máximo ${max} caracteres`)
    .nullable()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : null));

export const documentCreateInputSchema = z.object({
  paciente_id: uuidRequired,
  template_version_id: uuidRequired,
  titulo: text({ error: DOCUMENT_MESSAGES.requiredFields })
    .trim()
    .min(1, DOCUMENT_MESSAGES.requiredFields)
    .max(200, "Use no máximo 200 caracteres"),
  procedimento_id: z.preprocess((v) => (v === "" ? undefined : v), z.uuid("Procedimento inválido").optional()),
  procedimento: optionalText(200),
  data_procedimento: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    calendarDate("Data do procedimento inválida").optional(),
  ),
  medico_responsavel_id: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.uuid("Médico responsável inválido").optional(),
  ),
  variaveis: z
    .object({
      valor_procedimento: customText(200),
      riscos_personalizados: customText(20_000),
      beneficios_personalizados: customText(20_000),
      cuidados_personalizados: customText(20_000),
    })
    .default({
      valor_procedimento: null,
      riscos_personalizados: null,
      beneficios_personalizados: null,
      cuidados_personalizados: null,
    }),
  conteudo: z
    .object({ riscos: idList, beneficios: idList, cuidados: idList })
    .default({ riscos: [], beneficios: [], cuidados: [] }),
  /**
   * Placeholders without a value are refused (DOCUMENT_UNRESOLVED, with the names in details)
   * unless the user saw the list and chose to create anyway; they then print as visible gaps.
   */
  permitir_pendencias: z.boolean().optional().default(false),
  /**
   * "Pedir que o paciente grave o aceite em áudio" (decision 069). Absent: the template version's
   * default (`estrutura.pedir_audio`, on in the teleconsultation sample).
   */
  pedir_audio: z.boolean({ error: "Valor inválido" }).optional(),
});
export type DocumentCreateInput = z.input<typeof documentCreateInputSchema>;
export type DocumentCreateData = z.output<typeof documentCreateInputSchema>;

export const documentSummarySchema = z.object({
  id: text(),
  short_id: text(),
  titulo: text(),
  procedimento: text().nullable(),
  /** Effective status (expired when the deadline passed). */
  status: z.enum(DOCUMENT_STATUSES),
  created_at: text(),
  expiracao_at: text(),
  data_procedimento: text().nullable(),
  paciente_id: text(),
  paciente_nome: text().nullable(),
  profissional_nome: text().nullable(),
  criador_nome: text().nullable(),
  template_titulo: text().nullable(),
  versao: z.number().int().nullable(),
  /** Sent or viewed, live, and the responsible professional has not signed yet (decision 050). */
  aguardando_profissional: z.boolean(),
  /** The patient's informed refusal, and the revocation of a signed consent (decision 056). */
  recusado_at: text().nullable(),
  revogado_at: text().nullable(),
});
export type DocumentSummary = z.infer<typeof documentSummarySchema>;

export const documentListQuerySchema = z.object({
  q: text().trim().max(100).optional(),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  /** "1": only documents waiting for a signature (sent or viewed, not expired) — the "Assinar" screen. */
  aguardando: z.enum(["1"], { error: "Use aguardando=1" }).optional(),
  /** "1": only documents waiting for the responsible professional's signature (decision 050). */
  aguardando_profissional: z.enum(["1"], { error: "Use aguardando_profissional=1" }).optional(),
  /** "1": only revoked consents (signed, with a revocation record; decision 056). */
  revogado: z.enum(["1"], { error: "Use revogado=1" }).optional(),
  paciente_id: z.uuid("Paciente inválido").optional(),
  medico_responsavel_id: z.uuid("Profissional inválido").optional(),
  from: calendarDate("Data inicial inválida").optional(),
  to: calendarDate("Data final inválida").optional(),
  cursor: text().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(DOCUMENT_PAGE_SIZE),
});
export type DocumentListQuery = z.input<typeof documentListQuerySchema>;

export const documentListSchema = z.object({
  items: z.array(documentSummarySchema),
  /** Every document of the clinic, or the matches of a filter/search up to 1,000. */
  total: z.number().int(),
  /** true: more than `total` documents match ("mais de 1.000"). */
  total_capped: z.boolean(),
  next_cursor: text().nullable(),
});
export type DocumentList = z.infer<typeof documentListSchema>;

/** The five counters of /documents and the dashboard's figures (whole clinic). */
export const documentCountersSchema = z.object({
  total: z.number().int(),
  assinados: z.number().int(),
  /** Status sent (viewed has its own counter). */
  pendentes: z.number().int(),
  visualizados: z.number().int(),
  expirados: z.number().int(),
  /** Created this month and last month (São Paulo calendar), for a real month-over-month change. */
  criados_este_mes: z.number().int(),
  criados_mes_passado: z.number().int(),
  assinados_este_mes: z.number().int(),
  assinados_mes_passado: z.number().int(),
  /** Sent or viewed, live, waiting for the responsible professional (decision 050): the clinic's… */
  aguardando_profissional: z.number().int(),
  /** …and those whose responsible professional is the one asking. */
  aguardando_minha_assinatura: z.number().int(),
  /** Refused by the patient, and signed but revoked (decision 056). */
  recusados: z.number().int(),
  revogados: z.number().int(),
});
export type DocumentCounters = z.infer<typeof documentCountersSchema>;

const personSchema = z.object({
  id: text(),
  nome: text(),
  cpf: text().nullable(),
  email: text().nullable(),
  telefone: text().nullable(),
});

export const auditEntrySchema = z.object({
  id: text(),
  action: text(),
  label: text(),
  created_at: text(),
  actor_nome: text().nullable(),
  ip_address: text().nullable(),
  user_agent: text().nullable(),
  data: z.record(text(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const documentDetailSchema = documentSummarySchema.extend({
  /** The frozen DocumentModel (shape in src/shared/document-model/build-document-model.ts). */
  documento: z.record(text(), z.unknown()),
  conteudo_sha256: text(),
  variaveis_preenchidas: z.record(text(), z.unknown()),
  conteudo_selecionado: z.array(z.object({ tipo: text(), titulo: text(), descricao: text() })),
  paciente: personSchema.extend({ data_nascimento: text().nullable() }).nullable(),
  medico: personSchema
    .extend({
      conselho_tipo: text().nullable(),
      conselho_numero: text().nullable(),
      conselho_uf: text().nullable(),
      rqe: text().nullable(),
      especialidade: text().nullable(),
    })
    .nullable(),
  has_pdf: z.boolean(),
  pdf_nome: text().nullable(),
  /** Parties still to sign, in order: "profissional" before sending, then the patient or guardian. */
  assinaturas_pendentes: z.array(z.enum(["paciente", "responsavel", "profissional", "testemunha"])),
  cancel_reason: text().nullable(),
  /** The signer's answer to each separate optional consent of the model (decision 057), in its order. */
  consentimentos_opcionais: z
    .array(
      z.object({
        id: text(),
        titulo: text(),
        aceito: z.boolean(),
        parte_id: text(),
        respondido_em: text(),
        /** Revoked on its own later (decision 057): when the patient revoked it. */
        revogado_em: text().nullable().optional(),
      }),
    )
    .optional(),
  /** The patient asked to talk to the professional after a wrong comprehension answer (decision 061). */
  compreensao_pausada_at: text().nullable().optional(),
  /** Signed "a rogo" (decision 070): who signs at the patient's request, and why; null otherwise. */
  a_rogo: z
    .object({ nome: text(), cpf: text(), motivo: z.enum(A_ROGO_MOTIVOS) })
    .nullable()
    .optional(),
  /** The refusal and the revocation, with who recorded them and how (decision 056). */
  registros: z.array(choiceRecordSchema),
  audit: z.array(auditEntrySchema),
});
export type DocumentDetail = z.infer<typeof documentDetailSchema>;

export const documentCancelInputSchema = z.object({
  motivo: text({ error: DOCUMENT_MESSAGES.cancelReasonRequired })
    .trim()
    .min(3, DOCUMENT_MESSAGES.cancelReasonRequired)
    .max(500, "Use no máximo 500 caracteres"),
});

/** What the new-document screen needs besides patients, procedures and content. */
export const documentFormOptionsSchema = z.object({
  templates: z.array(
    z.object({
      template_id: text(),
      template_version_id: text(),
      titulo: text(),
      categoria: text(),
      especialidade: text(),
      version_number: z.number().int(),
      /** Structure of that version, for the live preview. */
      estrutura: z.object({
        title: text(),
        introduction: text(),
        sections: z.array(z.object({ id: text(), type: text(), title: text(), content: text() })),
        /** The optional consents that version offers (decision 057). */
        optional_consents: z.array(z.object({ id: text(), title: text(), text: text() })).optional(),
        /** The create form ticks "Pedir … áudio" for this template (decision 069). */
        pedir_audio: z.boolean().optional(),
      }),
    }),
  ),
  physicians: z.array(
    z.object({
      id: text(),
      nome: text(),
      cpf: text().nullable(),
      conselho_tipo: text().nullable(),
      conselho_numero: text().nullable(),
      conselho_uf: text().nullable(),
      rqe: text().nullable(),
      especialidade: text().nullable(),
      /**
       * This physician's personal defaults (part 2 §3): chosen as responsible, the form takes their
       * texts, not those of whoever prepares the document.
       */
      defaults: z.object({
        valor_procedimento: text().nullable(),
        riscos_personalizados: text().nullable(),
        beneficios_personalizados: text().nullable(),
        cuidados_personalizados: text().nullable(),
      }),
    }),
  ),
  /** Administrators and owners choose the responsible physician; others are it. */
  must_choose_physician: z.boolean(),
  /** The signed-in professional's personal defaults (part 2 §2), prefilled into the custom texts. */
  defaults: z.object({
    valor_procedimento: text().nullable(),
    riscos_personalizados: text().nullable(),
    beneficios_personalizados: text().nullable(),
    cuidados_personalizados: text().nullable(),
  }),
  /** Clinic data for the live preview's unidade_* variables. */
  clinic: z.object({
    nome: text(),
    logradouro: text().nullable(),
    numero: text().nullable(),
    complemento: text().nullable(),
    bairro: text().nullable(),
    cidade: text().nullable(),
    estado: text().nullable(),
    cep: text().nullable(),
    telefone: text().nullable(),
    /** Days a new document stays open (Configurações; 7 by default), for data_vencimento. */
    validade_dias: z.number().int().optional(),
  }),
});
export type DocumentFormOptions = z.infer<typeof documentFormOptionsSchema>;
