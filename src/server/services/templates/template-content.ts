import { canonicalSha256 } from "../../lib/content-hash.js";
import type { TemplateStructure } from "../../../shared/document-model/structure.js";
import { findPlaceholders } from "../../../shared/document-model/variables.js";
import type { TemplateData } from "../../../shared/schemas/template.js";

/**
 * The structure as stored: what the editor sent, with each section's `variables` recomputed
 * from its content (never trusted from the client).
 */
export function normalizeStructure(input: TemplateData["estrutura"]): TemplateStructure {
  return {
    title: input.title,
    introduction: input.introduction,
    sections: input.sections.map((section) => ({
      id: section.id,
      type: section.type,
      title: section.title,
      content: section.content,
      variables: findPlaceholders(section.content),
    })),
    // Only when there are any: a template without them keeps the content (and hash) it had (decision 057).
    ...(input.optional_consents && input.optional_consents.length > 0
      ? { optional_consents: input.optional_consents.map(({ id, title, text }) => ({ id, title, text })) }
      : {}),
    // Likewise the comprehension questions (decision 061).
    ...(input.comprehension && input.comprehension.length > 0
      ? {
          comprehension: input.comprehension.map(({ id, section_id, text, options, correct }) => ({
            id,
            section_id,
            text,
            options,
            correct,
          })),
        }
      : {}),
    // The create form's default for the audio of the agreement (decision 069), only when on.
    ...(input.pedir_audio === true ? { pedir_audio: true } : {}),
  };
}

/** The content columns of a template_versions row for `structure`. */
export function versionContent(structure: TemplateStructure) {
  return {
    variaveis_json: structure,
    conteudo_html: JSON.stringify(structure),
    hash_modelo: canonicalSha256(structure),
  };
}
