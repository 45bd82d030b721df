import { z } from "zod";
import { text } from "./safe-input.js";
import { optionalText, requiredText } from "./common.js";
import { parseReais } from "../br/money.js";

/** The list answers at most this many procedures, sorted by name (a clinic keeps far fewer). */
export const PROCEDURE_LIST_LIMIT = 200;
/** At most this many items of each kind linked to one procedure. */
export const MAX_LINKED_ITEMS = 500;

export const PROCEDURE_MESSAGES = {
  nomeRequired: "Informe o nome do procedimento",
  created: "Procedimento criado com sucesso",
  saved: "Procedimento salvo com sucesso",
  saveError: "Erro ao salvar procedimento",
  deleted: "Procedimento excluído",
  deleteError: "Erro ao excluir procedimento",
  loadError: "Erro ao carregar procedimentos",
  confirmDelete: "Tem certeza que deseja excluir este procedimento?",
  alwaysShared: "Recepcionistas sempre compartilham procedimentos",
  privateLabel: "Privado",
  sharedLabel: "Compartilhado",
  searchPlaceholder: "Buscar por nome, descrição ou especialidade...",
  empty: "Nenhum procedimento cadastrado",
  emptySearch: (term: string) => `Nenhum procedimento encontrado para "${term}"`,
  associationsSaved: "Associações salvas com sucesso!",
  associationsError: "Erro ao salvar associações",
  associationsLoadError: "Erro ao carregar associações",
} as const;

/** An amount in reais typed the Brazilian way → centavos; blank → null (clear); absent → undefined (keep). */
const reaisField = text()
  .trim()
  .max(30, "Use no máximo 30 caracteres")
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return undefined;
    if (!value) return null;
    const parsed = parseReais(value);
    if (parsed.ok) return parsed.centavos;
    ctx.addIssue({ code: "custom", message: parsed.message });
    return z.NEVER;
  });

export const procedureInputSchema = z.object({
  nome: requiredText(PROCEDURE_MESSAGES.nomeRequired, 160),
  descricao: optionalText(2000),
  especialidade: optionalText(120),
  /** Honoured only for users who may make procedures private; others always share. */
  is_private: z.boolean({ error: "Valor inválido" }).optional().default(false),
  /** The price in reais as typed ("1.234,56"): centavos; blank clears it; left out keeps it. */
  valor: reaisField,
});
export type ProcedureInput = z.input<typeof procedureInputSchema>;
export type ProcedureData = z.output<typeof procedureInputSchema>;

export const procedureSchema = z.object({
  id: text(),
  nome: text(),
  descricao: text().nullable(),
  especialidade: text().nullable(),
  is_private: z.boolean(),
  /** Price in centavos (typed here or imported from Feegow), null when none. */
  valor_centavos: z.number().int().nullable(),
  created_by: text().nullable(),
  created_at: text(),
  updated_at: text(),
});
export type Procedure = z.infer<typeof procedureSchema>;

export const procedureListQuerySchema = z.object({
  q: text().trim().max(100).optional(),
});

export const procedureListSchema = z.object({
  items: z.array(procedureSchema),
  /** True when more than PROCEDURE_LIST_LIMIT procedures match: refine the search. */
  truncated: z.boolean(),
});
export type ProcedureList = z.infer<typeof procedureListSchema>;

const idList = z
  .array(z.uuid("Item inválido"), { error: "Lista de itens inválida" })
  .max(MAX_LINKED_ITEMS, `Selecione no máximo ${MAX_LINKED_ITEMS} itens`)
  .transform((ids) => [...new Set(ids)]);

/** The content items linked to a procedure, by kind (ids). */
export const procedureAssociationsSchema = z.object({
  riscos: idList,
  beneficios: idList,
  cuidados: idList,
});
export type ProcedureAssociationsInput = z.input<typeof procedureAssociationsSchema>;
export type ProcedureAssociations = z.output<typeof procedureAssociationsSchema>;
