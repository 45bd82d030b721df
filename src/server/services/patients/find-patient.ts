import { and, eq, ne, type SQL } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { pacientes } from "../../../db/schema.js";
import { AppError } from "../../errors.js";

/** The tenant's patient by id, or NOT_FOUND (also for another clinic's id). */
export async function findPatientOrThrow(tx: Tx, tenantId: string, id: string) {
  const [row] = await tx
    .select()
    .from(pacientes)
    .where(and(eq(pacientes.tenant_id, tenantId), eq(pacientes.id, id)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "Paciente não encontrado");
  return row;
}

/** Refuses a CPF another patient of the same clinic already has, naming that patient. */
export async function assertCpfFree(
  tx: Tx,
  tenantId: string,
  cpf: string | undefined,
  exceptId?: string,
): Promise<void> {
  if (!cpf) return;
  const conditions: SQL[] = [eq(pacientes.tenant_id, tenantId), eq(pacientes.cpf, cpf)];
  if (exceptId) conditions.push(ne(pacientes.id, exceptId));
  const [existing] = await tx
    .select({ id: pacientes.id, nome: pacientes.nome })
    .from(pacientes)
    .where(and(...conditions))
    .limit(1);
  if (existing) throw cpfTaken(existing);
}

export function cpfTaken(existing: { id: string; nome: string } | undefined): AppError {
  return new AppError("PATIENT_CPF_TAKEN", undefined, {
    details: existing ? { patient_id: existing.id, nome: existing.nome } : {},
  });
}
