import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { beneficios, cuidadosPos, riscos } from "../../../db/schema.js";
import type { SelectedContent } from "../../../shared/document-model/document-variables.js";
import type { DocumentCreateData } from "../../../shared/schemas/document.js";
import { AppError } from "../../errors.js";

const TABLES = [
  { key: "riscos", tipo: "riscos", table: riscos },
  { key: "beneficios", tipo: "beneficios", table: beneficios },
  { key: "cuidados", tipo: "cuidados_pos", table: cuidadosPos },
] as const;

/**
 * The library items chosen for a document, read from the clinic's own tables (never the text the
 * browser sent), in the order they were chosen. An id of another clinic or a deleted item fails.
 */
export async function loadSelectedContent(
  tx: Tx,
  tenantId: string,
  chosen: DocumentCreateData["conteudo"],
): Promise<SelectedContent[]> {
  const out: SelectedContent[] = [];
  for (const { key, tipo, table } of TABLES) {
    const ids = chosen[key];
    if (ids.length === 0) continue;
    const rows = await tx
      .select({ id: table.id, titulo: table.titulo, descricao: table.descricao })
      .from(table)
      .where(and(eq(table.tenant_id, tenantId), inArray(table.id, ids)));
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const id of ids) {
      const row = byId.get(id);
      if (!row) throw new AppError("ASSOCIATION_ITEM_UNKNOWN");
      out.push({ tipo, titulo: row.titulo, descricao: row.descricao });
    }
  }
  return out;
}
