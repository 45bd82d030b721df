import { and, asc, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratoRegistros } from "../../../db/schema.js";
import type { ChoiceRecord } from "../../../shared/schemas/choices.js";

/** A document's refusal and revocation records, oldest first, as the document page shows them (decision 056). */
export async function listChoiceRecords(tx: Tx, tenantId: string, contratoId: string): Promise<ChoiceRecord[]> {
  const rows = await tx
    .select()
    .from(contratoRegistros)
    .where(and(eq(contratoRegistros.tenant_id, tenantId), eq(contratoRegistros.contrato_id, contratoId)))
    .orderBy(asc(contratoRegistros.created_at));
  return rows.map((row) => ({
    id: row.id,
    tipo: row.tipo,
    origem: row.origem,
    meio: row.meio,
    nome: row.nome,
    motivo: row.motivo,
    otp_verificado: row.otp_verificado,
    registrado_por_nome: row.registrado_por_nome,
    ocorrido_em: row.ocorrido_em.toISOString(),
    created_at: row.created_at.toISOString(),
    codigo_verificacao: row.verification_code,
    pdf_pronto: row.pdf_file_id !== null,
    pdf_sha256: row.pdf_sha256,
    original_pdf_sha256: row.original_pdf_sha256,
    item_id: row.item_id,
  }));
}
