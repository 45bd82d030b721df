import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { procedimentos } from "../../../db/schema.js";
import { type ProcedureMatch, type OurProcedure } from "../../../shared/feegow/match-procedures.js";
import { formatCentavos } from "../../../shared/feegow/normalize.js";
import type { FeegowProcedureRow } from "../../../shared/schemas/feegow.js";

/** The clinic's procedures as the matcher needs them, oldest first (the oldest of a name wins). */
export async function ourProcedures(tx: DbOrTx, tenantId: string): Promise<OurProcedure[]> {
  return tx
    .select({
      id: procedimentos.id,
      nome: procedimentos.nome,
      feegow_procedimento_id: procedimentos.feegow_procedimento_id,
      valor_centavos: procedimentos.valor_centavos,
      is_private: procedimentos.is_private,
    })
    .from(procedimentos)
    .where(eq(procedimentos.tenant_id, tenantId))
    .orderBy(procedimentos.created_at, procedimentos.id);
}

export function presentProcedureMatch(match: ProcedureMatch): FeegowProcedureRow {
  const valor = match.feegow.valor;
  return {
    feegow_id: match.feegow.procedimento_id,
    nome: match.feegow.nome,
    valor_centavos: valor,
    valor: valor === null ? null : formatCentavos(valor),
    situacao: match.situacao,
    procedimento_id: match.ours?.id ?? null,
  };
}
