import type { DocumentModel } from "@shared/document-model/build-document-model";

/**
 * The frozen model of a document as the API sends it (an object), checked enough to draw it:
 * null when it is missing or not a model (the dialog then says 'Nenhum conteúdo de template
 * encontrado.').
 */
export function asDocumentModel(value: unknown): DocumentModel | null {
  if (!value || typeof value !== "object") return null;
  const model = value as Partial<DocumentModel>;
  if (typeof model.title !== "string" || !Array.isArray(model.sections) || !Array.isArray(model.introduction))
    return null;
  if (model.sections.length === 0 && model.introduction.length === 0 && !model.title.trim()) return null;
  return {
    title: model.title,
    introduction: model.introduction,
    sections: model.sections,
    unresolved: Array.isArray(model.unresolved) ? model.unresolved : [],
    // The optional consents offered (decision 057), when the model has any.
    ...(Array.isArray(model.optional_consents) && model.optional_consents.length > 0
      ? { optional_consents: model.optional_consents }
      : {}),
    // The comprehension questions (decision 061), when the model has any.
    ...(Array.isArray(model.comprehension) && model.comprehension.length > 0
      ? { comprehension: model.comprehension }
      : {}),
  };
}
