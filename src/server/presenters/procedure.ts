import type { procedimentos } from "../../db/schema.js";
import type { Procedure } from "../../shared/schemas/procedure.js";

type ProcedureRow = typeof procedimentos.$inferSelect;

export function presentProcedure(row: ProcedureRow): Procedure {
  return {
    id: row.id,
    nome: row.nome,
    descricao: row.descricao,
    especialidade: row.especialidade,
    is_private: row.is_private,
    valor_centavos: row.valor_centavos,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
