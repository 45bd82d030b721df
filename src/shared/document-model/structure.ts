import { z } from "zod";
import { text } from "../schemas/safe-input.js";
import { OptionalConsentSchema } from "./optional-consents.js";
import { ComprehensionQuestionSchema } from "./comprehension.js";

/** The five section types of a structured template (spec part 2, §3). */
export const SECTION_TYPES = ["paragraph", "bullet_list", "numbered_list", "patient_data", "signature"] as const;

export type SectionType = (typeof SECTION_TYPES)[number];

export const SECTION_TYPE_LABEL: Readonly<Record<SectionType, string>> = {
  paragraph: "Parágrafo",
  bullet_list: "Lista com Bullets",
  numbered_list: "Lista Numerada",
  patient_data: "Dados do Paciente",
  signature: "Seção de Assinatura",
};

export const SectionTypeSchema = z.enum(SECTION_TYPES);

/**
 * One section. Ids are built from the current time by the editor; older content may hold them as
 * numbers, so a number is accepted and turned into its string form.
 */
export const TemplateSectionSchema = z.object({
  id: z.union([text().min(1), z.number().finite()]).transform((id) => String(id)),
  type: SectionTypeSchema,
  title: text(),
  content: text(),
  variables: z.array(text()).optional(),
});

export const TemplateStructureSchema = z.object({
  title: text(),
  introduction: text(),
  sections: z.array(TemplateSectionSchema),
  /** Separate optional consents, each answered Sim/Não (decision 057). Absent in older content. */
  optional_consents: z.array(OptionalConsentSchema).optional(),
  /** Comprehension questions answered before signing (decision 061). Absent in older content. */
  comprehension: z.array(ComprehensionQuestionSchema).optional(),
  /**
   * Documents made from this version ask the patient for the audio of the agreement unless the
   * create form unticks it (decision 069). Not content: the document model does not carry it.
   */
  pedir_audio: z.boolean().optional(),
});

export type TemplateSection = z.output<typeof TemplateSectionSchema>;
export type TemplateStructure = z.output<typeof TemplateStructureSchema>;

/** An empty template that uses the given title. */
export function emptyTemplate(title: string): TemplateStructure {
  return { title, introduction: "", sections: [] };
}

/** Id of the single paragraph section built from content that is not JSON. */
export const LEGACY_SECTION_ID = "secao-1";

/**
 * Reads stored template content (spec part 2, §5):
 * - a string that is not valid JSON → one paragraph section holding that text (a blank string → an
 *   empty template);
 * - valid JSON (or an already-parsed value) that is not a valid structure → empty template with
 *   `fallbackTitle`;
 * - otherwise the validated structure.
 */
export function parseTemplateContent(raw: string | unknown, fallbackTitle: string): TemplateStructure {
  let value: unknown = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") return emptyTemplate(fallbackTitle);
    try {
      value = JSON.parse(raw);
    } catch {
      return {
        title: fallbackTitle,
        introduction: "",
        sections: [{ id: LEGACY_SECTION_ID, type: "paragraph", title: "", content: raw }],
      };
    }
  }
  const parsed = TemplateStructureSchema.safeParse(value);
  return parsed.success ? parsed.data : emptyTemplate(fallbackTitle);
}
