import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratos } from "../../../db/schema.js";
import { AppError } from "../../errors.js";

/** The clinic's document by id, or NOT_FOUND ('Documento não encontrado'); `lock` takes FOR UPDATE. */
export async function findDocumentOrThrow(tx: Tx, tenantId: string, id: string, lock = false) {
  const query = tx
    .select()
    .from(contratos)
    .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, id)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new AppError("NOT_FOUND", "Documento não encontrado");
  return row;
}
