import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { pacientes } from "../../../db/schema.js";
import { dateInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import { blockingSendProblem, type SendPatient } from "../../../shared/send-readiness.js";
import { AppError } from "../../errors.js";

/** The patient's fields the sending rule reads (src/shared/send-readiness), or null when gone. */
export async function loadSendPatient(tx: Tx, tenantId: string, pacienteId: string): Promise<SendPatient | null> {
  const [patient] = await tx
    .select({
      nome: pacientes.nome,
      cpf: pacientes.cpf,
      data_nascimento: pacientes.data_nascimento,
      responsavel_nome: pacientes.responsavel_nome,
      responsavel_cpf: pacientes.responsavel_cpf,
      email: pacientes.email,
      telefone: pacientes.telefone,
    })
    .from(pacientes)
    .where(and(eq(pacientes.tenant_id, tenantId), eq(pacientes.id, pacienteId)))
    .limit(1);
  return patient ?? null;
}

/**
 * Refuses to send (or resend) a link nobody could sign: the signer's CPF is checked against the
 * record's, and a minor's guardian needs their own name and CPF there. The same rule the screens
 * show before sending (patientSendProblems).
 */
export async function assertPatientCanSign(
  tx: Tx,
  tenantId: string,
  pacienteId: string,
  now: Date,
): Promise<SendPatient> {
  const patient = await loadSendPatient(tx, tenantId, pacienteId);
  if (!patient) throw new AppError("PATIENT_CPF_MISSING");
  const problem = blockingSendProblem(patient, dateInSaoPaulo(now));
  if (problem) throw new AppError(problem.code as "PATIENT_CPF_MISSING" | "GUARDIAN_MISSING");
  return patient;
}
