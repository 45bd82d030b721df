import { z } from "zod";
import { text } from "./safe-input.js";
import { SectionTypeSchema } from "../document-model/structure.js";
import { requiredText } from "./common.js";
import { templateSizeProblem, templateTextSize } from "../document-model/size.js";
import { MAX_SECTION_CONTENT, MAX_TEMPLATE_SECTIONS } from "../reference/limits.js";
import { optionalConsentsInputSchema } from "../document-model/optional-consents.js";
import {
  COMPREHENSION_MESSAGES,
  ComprehensionQuestionSchema,
  comprehensionInputSchema,
  questionSectionProblems,
} from "../document-model/comprehension.js";

export { MAX_SECTION_CONTENT, MAX_TEMPLATE_SECTIONS };

/** Spec part 2 §9. */
export const TEMPLATE_CATEGORIES = ["Consentimento", "Contratos", "Clínicos", "Éticos", "Administrativos"] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

export const TEMPLATE_STATUSES = ["draft", "review", "published"] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const TEMPLATE_STATUS_LABEL: Readonly<Record<TemplateStatus, string>> = {
  draft: "Rascunho",
  review: "Em Revisão",
  published: "Publicado",
};

/** An unknown status shows as draft (spec part 2 §2 Template view). */
export function templateStatusLabel(status: string): string {
  return TEMPLATE_STATUS_LABEL[status as TemplateStatus] ?? TEMPLATE_STATUS_LABEL.draft;
}

/** The four tags a template can use for the clinic's and the professional's content (part 2 §9). */
export const TEMPLATE_TAGS = ["riscos", "beneficios", "cuidados_pos", "valor_procedimento"] as const;

export const TEMPLATE_PAGE_SIZE = 20;

export const TEMPLATE_MESSAGES = {
  tituloRequired: "Informe o título do template",
  especialidadeRequired: "Por favor, selecione uma especialidade",
  especialidadeNotAllowed: "Especialidade não permitida para o seu perfil",
  categoriaRequired: "Selecione uma categoria",
  created: "Template criado com sucesso",
  createError: "Erro ao criar template",
  saved: "Template atualizado com sucesso.",
  saveError: "Erro ao salvar template.",
  loadError: "Erro ao carregar template.",
  versionsLoadError: "Erro ao carregar histórico de versões.",
  versionNotFound: "Versão não encontrada",
  versionLoadError: "Erro ao carregar a versão.",
  restored: (n: number) => `Versão ${n} restaurada como nova versão.`,
  restoreError: "Erro ao restaurar a versão.",
  changelogRestored: (n: number) => `Restaurado da versão ${n}`,
  statisticsLoadError: "Erro ao carregar estatísticas.",
  duplicated: "Template duplicado com sucesso.",
  duplicateError: "Erro ao duplicar template.",
  deleted: "Template excluído com sucesso.",
  deleteError: "Erro ao excluir template.",
  deleteBlockedTitle: "Não é possível excluir",
  deleteBlocked: (count: number) => `Este template está sendo usado em ${count} contrato(s). Não é possível excluí-lo.`,
  confirmDeleteTitle: "Confirmar Exclusão",
  notFound: "Template não encontrado",
  backToTemplates: "Voltar para Templates",
  searchPlaceholder: "Buscar por título, especialidade ou categoria...",
  empty: "Nenhum template encontrado",
  emptyHint: "Crie seu primeiro template para começar",
  emptySearch: (term: string) => `Nenhum template encontrado para "${term}"`,
  noStructure: "Este template não possui conteúdo estruturado...",
  changelogUpdated: "Template atualizado",
  changelogCreated: "Versão inicial",
  changelogDuplicated: "Template duplicado",
  copySuffix: " (Cópia)",
  statusChanged: "Status do template atualizado",
  statusError: "Erro ao alterar status do template",
  invalidTransition: "Esta mudança de status não é permitida",
  defaultsSaved: "Templates salvos com sucesso!",
  defaultsError: "Erro ao salvar templates. Tente novamente.",
} as const;

/** A section as the editor sends it: the five types, bounded sizes. */
export const templateSectionInputSchema = z.object({
  id: z.union([text().trim().min(1).max(64), z.number().finite()]).transform((id) => String(id)),
  type: SectionTypeSchema,
  title: text().max(300, "Use no máximo 300 caracteres no título da seção"),
  content: text().max(MAX_SECTION_CONTENT, `Use no máximo ${MAX_SECTION_CONTENT} caracteres por seção`),
  variables: z.array(text().max(100)).max(200).optional(),
});

export const templateStructureInputSchema = z
  .object({
    title: text().max(300, "Use no máximo 300 caracteres no título do documento"),
    introduction: text().max(MAX_SECTION_CONTENT, `Use no máximo ${MAX_SECTION_CONTENT} caracteres na introdução`),
    sections: z
      .array(templateSectionInputSchema)
      .max(MAX_TEMPLATE_SECTIONS, `Use no máximo ${MAX_TEMPLATE_SECTIONS} seções`)
      .refine(
        (sections) => new Set(sections.map((s) => String(s.id))).size === sections.length,
        "Seções com identificador repetido",
      ),
    /** Separate optional consents, answered Sim/Não by the signer (decision 057). */
    optional_consents: optionalConsentsInputSchema.optional(),
    /** Comprehension questions, each tied to one of these sections (decision 061). */
    comprehension: comprehensionInputSchema.optional(),
    /** Documents from it ask for the audio of the agreement by default (decision 069). */
    pedir_audio: z.boolean({ error: "Valor inválido" }).optional(),
  })
  .superRefine((structure, ctx) => {
    const orphans = questionSectionProblems(
      structure.comprehension ?? [],
      structure.sections.map((s) => String(s.id)),
    );
    for (const index of orphans)
      ctx.addIssue({
        code: "custom",
        message: COMPREHENSION_MESSAGES.unknownSection,
        path: ["comprehension", index, "section_id"],
      });
    // The whole template must stay small enough for one PDF render well under a second (decision
    // 012): total text, line breaks and the longest run without spaces.
    const problem = templateSizeProblem(templateTextSize(structure));
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: [] });
  });

/** Create and edit: basic information plus the structured content. */
export const templateInputSchema = z.object({
  titulo: requiredText(TEMPLATE_MESSAGES.tituloRequired, 200),
  especialidade: requiredText(TEMPLATE_MESSAGES.especialidadeRequired, 120),
  categoria: z.enum(TEMPLATE_CATEGORIES, { error: TEMPLATE_MESSAGES.categoriaRequired }),
  estrutura: templateStructureInputSchema,
});
export type TemplateInput = z.input<typeof templateInputSchema>;
export type TemplateData = z.output<typeof templateInputSchema>;

/** A row of the list (and the head of every template screen). */
export const templateSummarySchema = z.object({
  id: text(),
  titulo: text(),
  especialidade: text(),
  categoria: text(),
  status: z.enum(TEMPLATE_STATUSES),
  created_at: text(),
  updated_at: text(),
  created_by: text().nullable(),
  criador_nome: text().nullable(),
  versao_atual: z.number().int().nullable(),
  /** Documents made from any version of this template. */
  usos: z.number().int(),
});
export type TemplateSummary = z.infer<typeof templateSummarySchema>;

export const templateListQuerySchema = z.object({
  q: text().trim().max(100).optional(),
  status: z.enum(TEMPLATE_STATUSES).optional(),
  cursor: text().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(TEMPLATE_PAGE_SIZE),
});

export const templateListSchema = z.object({
  items: z.array(templateSummarySchema),
  /** Templates matching the search. */
  total: z.number().int(),
  next_cursor: text().nullable(),
});
export type TemplateList = z.infer<typeof templateListSchema>;

/** The four cards of /templates (whole clinic, not the search). */
export const templateStatsSchema = z.object({
  total: z.number().int(),
  publicados: z.number().int(),
  em_revisao: z.number().int(),
  rascunhos: z.number().int(),
});
export type TemplateStats = z.infer<typeof templateStatsSchema>;

export const templateStructureSchema = z.object({
  title: text(),
  introduction: text(),
  sections: z.array(
    z.object({
      id: text(),
      type: SectionTypeSchema,
      title: text(),
      content: text(),
      variables: z.array(text()).optional(),
    }),
  ),
  optional_consents: z.array(z.object({ id: text(), title: text(), text: text() })).optional(),
  /** Comprehension questions with their right option: staff only (decision 061). */
  comprehension: z.array(ComprehensionQuestionSchema).optional(),
  /** Documents from it ask for the audio of the agreement by default (decision 069). */
  pedir_audio: z.boolean().optional(),
});

/** One template with its current version's content (view and edit). */
export const templateDetailSchema = templateSummarySchema.extend({
  versao_atual_id: text().nullable(),
  hash_modelo: text().nullable(),
  /** Parsed with the spec's fallbacks: never null; may have no sections. */
  estrutura: templateStructureSchema,
});
export type TemplateDetail = z.infer<typeof templateDetailSchema>;

export const templateVersionSchema = z.object({
  id: text(),
  version_number: z.number().int(),
  changelog: text(),
  hash_modelo: text(),
  created_at: text(),
  published_at: text().nullable(),
  /** Null → the screen shows 'Sistema'. */
  publicador_nome: text().nullable(),
  atual: z.boolean(),
});
export type TemplateVersion = z.infer<typeof templateVersionSchema>;
export const templateVersionListSchema = z.object({ items: z.array(templateVersionSchema) });

/** One version with its content, for comparing versions (Histórico de Versões). */
export const templateVersionDetailSchema = templateVersionSchema.extend({ estrutura: templateStructureSchema });
export type TemplateVersionDetail = z.infer<typeof templateVersionDetailSchema>;

/** "Restaurar esta versão": the version whose content becomes a new version. */
export const templateRestoreInputSchema = z
  .object({ versao_id: z.uuid({ error: TEMPLATE_MESSAGES.versionNotFound }) })
  .strict();
export type TemplateRestoreInput = z.infer<typeof templateRestoreInputSchema>;

/** Usage statistics of one template (counts documents of every version). */
export const templateUsageSchema = z.object({
  total: z.number().int(),
  este_mes: z.number().int(),
  ultimos_30_dias: z.number().int(),
  primeiro_uso: text().nullable(),
  ultimo_uso: text().nullable(),
  por_status: z.array(z.object({ status: text(), total: z.number().int() })),
  /** Exactly six entries, oldest first, months in America/Sao_Paulo ('2026-06'). */
  por_mes: z.array(z.object({ mes: text(), total: z.number().int() })),
});
export type TemplateUsage = z.infer<typeof templateUsageSchema>;

/** Review workflow (the spec does not show transitions): which status may follow which. */
export const TEMPLATE_TRANSITIONS: Readonly<Record<TemplateStatus, readonly TemplateStatus[]>> = {
  draft: ["review", "published"],
  review: ["published", "draft"],
  published: ["draft"],
};

export function canTransition(from: TemplateStatus, to: TemplateStatus): boolean {
  return TEMPLATE_TRANSITIONS[from].includes(to);
}

export const templateStatusInputSchema = z.object({
  status: z.enum(TEMPLATE_STATUSES, { error: "Status inválido" }),
});

/** The specialties the signed-in user may give a template. */
export const allowedSpecialtiesSchema = z.object({
  items: z.array(text()),
  /** True when nobody in the clinic has a specialty: the list is every known specialty. */
  fallback: z.boolean(),
});
export type AllowedSpecialties = z.infer<typeof allowedSpecialtiesSchema>;

/** ?clinica_id: whose specialties (part 2 §6, p_clinica_id); only the platform administrator may name another clinic. */
export const allowedSpecialtiesQuerySchema = z.object({
  clinica_id: z.uuid("Clínica inválida").optional(),
});

/** The clinics the platform administrator may choose from (part 2 §6). */
export const platformClinicListSchema = z.object({
  items: z.array(z.object({ id: z.uuid(), nome: z.string() })),
});
export type PlatformClinicList = z.infer<typeof platformClinicListSchema>;

/** /profile/templates: the professional's default texts (part 2 §2 Personal template defaults). */
export const templateDefaultsSchema = z.object({
  template_riscos: text().max(MAX_SECTION_CONTENT).nullable(),
  template_beneficios: text().max(MAX_SECTION_CONTENT).nullable(),
  template_cuidados_pos: text().max(MAX_SECTION_CONTENT).nullable(),
  template_valor_procedimento: text().max(200).nullable(),
});
export type TemplateDefaults = z.infer<typeof templateDefaultsSchema>;

const optionalDefault = (max: number) =>
  text({ error: "Texto inválido" })
    .max(max, `Use no máximo ${max} caracteres`)
    .nullable()
    .optional()
    .transform((value) => (value?.trim() ? value : null));

export const templateDefaultsInputSchema = z.object({
  template_riscos: optionalDefault(MAX_SECTION_CONTENT),
  template_beneficios: optionalDefault(MAX_SECTION_CONTENT),
  template_cuidados_pos: optionalDefault(MAX_SECTION_CONTENT),
  template_valor_procedimento: optionalDefault(200),
});
export type TemplateDefaultsInput = z.input<typeof templateDefaultsInputSchema>;
