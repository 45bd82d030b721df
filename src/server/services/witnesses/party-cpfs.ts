import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { pacientes, profiles } from "../../../db/schema.js";
import { aRogoOf } from "../../../shared/schemas/a-rogo.js";
import { selectWitnesses } from "./witness-rows.js";

/**
 * The CPFs (digits) of everyone already on a document — the patient, the guardian, the responsible
 * professional, the named witnesses and whoever signs "a rogo" (decision 070): a witness or the
 * person who signs at the patient's request must be a third person, none of these.
 */
export async function partyCpfs(
  tx: Tx,
  tenantId: string,
  document: { id: string; paciente_id: string; medico_responsavel_id: string | null; a_rogo: unknown },
): Promise<{ patient: string[]; physician: string[]; witnesses: string[]; aRogo: string[] }> {
  const [patient] = await tx
    .select({ cpf: pacientes.cpf, responsavel_cpf: pacientes.responsavel_cpf })
    .from(pacientes)
    .where(and(eq(pacientes.tenant_id, tenantId), eq(pacientes.id, document.paciente_id)))
    .limit(1);
  const [physician] = document.medico_responsavel_id
    ? await tx
        .select({ cpf: profiles.cpf })
        .from(profiles)
        .where(and(eq(profiles.tenant_id, tenantId), eq(profiles.id, document.medico_responsavel_id)))
        .limit(1)
    : [];
  const witnesses = await selectWitnesses(tx, tenantId, document.id);
  const digits = (values: (string | null | undefined)[]) =>
    values.map((cpf) => (cpf ?? "").replace(/\D/g, "")).filter((cpf) => cpf.length > 0);
  return {
    patient: digits([patient?.cpf, patient?.responsavel_cpf]),
    physician: digits([physician?.cpf]),
    witnesses: digits(witnesses.map((w) => w.cpf)),
    aRogo: digits([aRogoOf(document.a_rogo)?.cpf]),
  };
}
