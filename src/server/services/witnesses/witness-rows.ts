import { and, asc, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratoPartes, contratoTestemunhas } from "../../../db/schema.js";
import { formatCpf } from "../../../shared/br/cpf.js";
import type { Witness } from "../../../shared/schemas/witness.js";

export type WitnessRow = typeof contratoTestemunhas.$inferSelect;

/** The witnesses named on a document, in order (1, 2). */
export function selectWitnesses(tx: Tx, tenantId: string, contratoId: string): Promise<WitnessRow[]> {
  return tx
    .select()
    .from(contratoTestemunhas)
    .where(and(eq(contratoTestemunhas.tenant_id, tenantId), eq(contratoTestemunhas.contrato_id, contratoId)))
    .orderBy(asc(contratoTestemunhas.ordem));
}

/** One witness of the document, or undefined. */
export async function findWitness(
  tx: Tx,
  tenantId: string,
  contratoId: string,
  witnessId: string,
): Promise<WitnessRow | undefined> {
  const [row] = await tx
    .select()
    .from(contratoTestemunhas)
    .where(
      and(
        eq(contratoTestemunhas.tenant_id, tenantId),
        eq(contratoTestemunhas.contrato_id, contratoId),
        eq(contratoTestemunhas.id, witnessId),
      ),
    )
    .limit(1);
  return row;
}

/** The witnesses with the time each signed (the party with papel 'testemunha' and their ordem). */
export async function presentWitnesses(tx: Tx, tenantId: string, contratoId: string): Promise<Witness[]> {
  const rows = await selectWitnesses(tx, tenantId, contratoId);
  const signed = await tx
    .select({ ordem: contratoPartes.ordem, assinou_em: contratoPartes.assinou_em })
    .from(contratoPartes)
    .where(
      and(
        eq(contratoPartes.tenant_id, tenantId),
        eq(contratoPartes.contrato_id, contratoId),
        eq(contratoPartes.papel, "testemunha"),
      ),
    );
  return rows.map((row) => ({
    id: row.id,
    ordem: row.ordem,
    nome: row.nome,
    cpf: formatCpf(row.cpf),
    email: row.email,
    telefone: row.telefone,
    assinou_em: signed.find((party) => party.ordem === row.ordem)?.assinou_em.toISOString() ?? null,
  }));
}
