import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
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
  };
}

/** SHA-256 (hex) of the RFC 8785 canonical JSON of the content: the version's hash_modelo. */
export function hashContent(content: unknown): string {
  const canonical = canonicalize(content) ?? "null";
  return createHash("sha256").update(canonical, "utf8").digest("hex");
}

/** The content columns of a template_versions row for `structure`. */
export function versionContent(structure: TemplateStructure) {
  return {
    variaveis_json: structure,
    conteudo_html: JSON.stringify(structure),
    hash_modelo: hashContent(structure),
  };
}
