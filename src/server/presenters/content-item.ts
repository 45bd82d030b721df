import type { ContentItem, ContentKind } from "../../shared/schemas/content.js";
import type { ContentRow } from "../services/content/content-tables.js";

export function presentContentItem(kind: ContentKind, row: ContentRow): ContentItem {
  return {
    id: row.id,
    kind,
    titulo: row.titulo,
    descricao: row.descricao,
    categoria: "categoria" in row ? row.categoria : null,
    periodo: "periodo" in row ? row.periodo : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
