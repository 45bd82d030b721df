import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { pacientes } from "../../../db/schema.js";

/** The patient's fields that decide who signs and how (requiredSigner, signingRequirement, masking). */
export async function loadSignerRecord(tx: Tx, tenantId: string, pacienteId: string) {
  const [patient] = await tx
    .select({
      nome: pacientes.nome,
      cpf: pacientes.cpf,
      email: pacientes.email,
      telefone: pacientes.telefone,
      data_nascimento: pacientes.data_nascimento,
      responsavel_nome: pacientes.responsavel_nome,
      responsavel_cpf: pacientes.responsavel_cpf,
      responsavel_email: pacientes.responsavel_email,
      responsavel_telefone: pacientes.responsavel_telefone,
    })
    .from(pacientes)
    .where(and(eq(pacientes.tenant_id, tenantId), eq(pacientes.id, pacienteId)))
    .limit(1);
  return patient;
}
