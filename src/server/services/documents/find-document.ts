import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratos } from "../../../db/schema.js";
import { DOCUMENT_MESSAGES } from "../../../shared/schemas/document-basics.js";
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

/** The same for the PDF paths, in their wording (spec part 1 §5 PDF generation): 'Contrato não encontrado'. */
export async function findContractForPdf(tx: Tx, tenantId: string, id: string) {
  return findDocumentOrThrow(tx, tenantId, id).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND") {
      throw new AppError("NOT_FOUND", DOCUMENT_MESSAGES.contractNotFound);
    }
    throw error;
  });
}
