import type { ContentKind } from "@shared/schemas/content";

/** One item of each kind, for dialog titles ("Novo risco"). */
export const KIND_SINGULAR: Record<ContentKind, string> = {
  riscos: "Risco",
  beneficios: "Benefício",
  cuidados: "Cuidado pós-op",
};

/** "1 selecionado", "3 selecionados". */
export const selectedLabel = (count: number): string => `${count} ${count === 1 ? "selecionado" : "selecionados"}`;
