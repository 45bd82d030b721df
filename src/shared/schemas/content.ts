import { z } from "zod";
import { text } from "./safe-input.js";
import { optionalText, requiredText } from "./common.js";

/** The three kinds of content item, as they appear in the API path (/api/content/:kind). */
export const CONTENT_KINDS = ["riscos", "beneficios", "cuidados"] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

export const CONTENT_KIND_LABEL: Record<ContentKind, string> = {
  riscos: "Riscos",
  beneficios: "Benefícios",
  cuidados: "Cuidados Pós-op",
};

export const CONTENT_LIST_LIMIT = 200;

export const CONTENT_MESSAGES = {
  tituloRequired: "Informe o título",
  descricaoRequired: "Informe a descrição",
  created: "Item criado com sucesso",
  saved: "Item salvo com sucesso",
  saveError: "Erro ao salvar item",
  deleted: "Item excluído",
  deleteError: "Erro ao excluir item",
  loadError: "Erro ao carregar itens",
  confirmDelete: "Tem certeza que deseja excluir este item?",
  searchPlaceholder: "Buscar por título, descrição ou categoria...",
  empty: "Nenhum item cadastrado",
  emptySearch: (term: string) => `Nenhum item encontrado para "${term}"`,
} as const;

/**
 * One form for the three kinds: `categoria` is kept for risks and benefits, `periodo` for
 * aftercare items (spec part 2 §3); the other is ignored.
 */
export const contentItemInputSchema = z.object({
  titulo: requiredText(CONTENT_MESSAGES.tituloRequired, 200),
  descricao: requiredText(CONTENT_MESSAGES.descricaoRequired, 5000),
  categoria: optionalText(120),
  periodo: optionalText(120),
});
export type ContentItemInput = z.input<typeof contentItemInputSchema>;
export type ContentItemData = z.output<typeof contentItemInputSchema>;

export const contentItemSchema = z.object({
  id: text(),
  kind: z.enum(CONTENT_KINDS),
  titulo: text(),
  descricao: text(),
  categoria: text().nullable(),
  periodo: text().nullable(),
  created_at: text(),
  updated_at: text(),
});
export type ContentItem = z.infer<typeof contentItemSchema>;

export const contentListQuerySchema = z.object({
  q: text().trim().max(100).optional(),
});

export const contentListSchema = z.object({
  items: z.array(contentItemSchema),
  truncated: z.boolean(),
});
export type ContentList = z.infer<typeof contentListSchema>;
