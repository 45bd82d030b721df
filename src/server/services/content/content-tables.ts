import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { beneficios, cuidadosPos, riscos } from "../../../db/schema.js";
import type { ContentItemData, ContentKind } from "../../../shared/schemas/content.js";
import { AppError } from "../../errors.js";

/**
 * The three content tables share their columns (id, tenant_id, titulo, descricao, created_by,
 * timestamps) and differ in one: categoria (risks, benefits) or periodo (aftercare). The services
 * address them through the shared columns; `kindColumns` supplies the one that differs.
 */
const TABLES = { riscos, beneficios, cuidados: cuidadosPos } as const;
type SharedShape = typeof riscos;
export type ContentRow = typeof riscos.$inferSelect | typeof cuidadosPos.$inferSelect;

export function contentTable(kind: ContentKind): SharedShape {
  return TABLES[kind] as unknown as SharedShape;
}

/** The kind's own column, from the form (the other one is ignored). */
export function kindColumns(kind: ContentKind, input: ContentItemData): Record<string, string | null> {
  return kind === "cuidados" ? { periodo: input.periodo ?? null } : { categoria: input.categoria ?? null };
}

export const CONTENT_ENTITY: Record<ContentKind, string> = {
  riscos: "risco",
  beneficios: "beneficio",
  cuidados: "cuidado_pos",
};

/** The tenant's item of `kind` by id, or NOT_FOUND (also for another clinic's id). */
export async function findContentItemOrThrow(
  tx: Tx,
  kind: ContentKind,
  tenantId: string,
  id: string,
): Promise<ContentRow> {
  const table = contentTable(kind);
  const [row] = await tx
    .select()
    .from(table)
    .where(and(eq(table.tenant_id, tenantId), eq(table.id, id)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "Item não encontrado");
  return row;
}
