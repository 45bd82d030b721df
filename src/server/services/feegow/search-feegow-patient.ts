import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { FEEGOW_MESSAGES, type FeegowPatient } from "../../../shared/schemas/feegow.js";
import { maskCpf } from "../../../shared/signing-rules.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { clientFor, type FeegowConnection, feegowAppError, loadFeegowRow } from "./feegow-store.js";
import { patientFromFeegow } from "./patient-from-feegow.js";

export interface SearchFeegowPatientOptions {
  db: Db;
  secretBox: SecretBox;
  connection: FeegowConnection;
  actor: Actor;
  cpf: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/**
 * "Buscar no Feegow" on the new-patient form: GET /patient/list?cpf= (who has this CPF, with the
 * Feegow id), then GET /patient/search?paciente_cpf= (the record), shaped for the form. Needs the
 * patients switch on and a token (spec part 2 §5). The lookup goes to the audit trail (masked CPF).
 */
export async function searchFeegowPatient({
  db,
  secretBox,
  connection,
  actor,
  cpf,
  audit,
}: SearchFeegowPatientOptions): Promise<FeegowPatient> {
  const row = await withTenant(db, actor.tenantId, (tx) => loadFeegowRow(tx, actor.tenantId));
  if (row?.integrations.patients !== true) {
    throw new AppError(
      "FEEGOW_FEATURE_DISABLED",
      `${FEEGOW_MESSAGES.disabled}: ${FEEGOW_MESSAGES.disabledDetail.patients}`,
      {
        details: { feature: "patients" },
      },
    );
  }
  const client = clientFor(row, secretBox, connection);

  let found: FeegowPatient | null = null;
  try {
    const ids = await client.findPatientIds(cpf);
    if (ids.length > 0) {
      const detail = await client.getPatientByCpf(cpf);
      const id = detail.id && ids.includes(detail.id) ? detail.id : (ids[0] as number);
      found = patientFromFeegow(detail, id, cpf);
    }
  } catch (error) {
    throw feegowAppError(error);
  }

  await withTenant(db, actor.tenantId, (tx) =>
    recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "integration.feegow_patient_searched",
        entityType: "tenant",
        entityId: actor.tenantId,
        data: { cpf: maskCpf(cpf), encontrado: found !== null, feegow_patient_id: found?.feegow_patient_id ?? null },
      },
    ),
  );
  if (!found) throw new AppError("FEEGOW_PATIENT_NOT_FOUND");
  return found;
}
