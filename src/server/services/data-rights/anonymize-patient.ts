import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratos, pacientes } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { patientAnonymization, RETENTION_MESSAGES } from "../../../shared/retention/retention-rule.js";
import { effectiveStatus } from "../../../shared/schemas/document.js";
import type { Patient } from "../../../shared/schemas/patient.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { presentPatient } from "../../presenters/patient.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findPatientOrThrow } from "../patients/find-patient.js";
import { deleteDocumentRows } from "./delete-document-rows.js";

export const ANONYMIZED_NAME = "Paciente anonimizado";

export interface AnonymizePatientOptions {
  db: Db;
  actor: Actor;
  patientId: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * POST /api/patients/:id/anonymize (LGPD art. 18 IV and VI): removes what identifies the patient
 * — the name becomes "Paciente anonimizado"; CPF, birth date, sex, phone, e-mail, address, the
 * guardian and the clinic-system id become null (all nullable; the CPF index is partial, so many
 * anonymized patients coexist). Irreversible. Refused while the clinic must keep any of their
 * documents (signed: 20 years, Lei 13.787/2018 — art. 16 I of the LGPD) or one waits for a
 * signature; their unsigned documents (drafts, cancelled, expired) are deleted with it, since
 * they carry the patient's name and CPF in their frozen content. One transaction, audited.
 */
export async function anonymizePatient({
  db,
  actor,
  patientId,
  audit,
  now = new Date(),
}: AnonymizePatientOptions): Promise<Patient> {
  return withTenant(db, actor.tenantId, async (tx) => {
    await tx
      .select({ id: pacientes.id })
      .from(pacientes)
      .where(and(eq(pacientes.tenant_id, actor.tenantId), eq(pacientes.id, patientId)))
      .for("update");
    const patient = await findPatientOrThrow(tx, actor.tenantId, patientId);
    const documents = await tx
      .select()
      .from(contratos)
      .where(and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.paciente_id, patient.id)))
      .for("update");
    const verdict = patientAnonymization(
      documents.map((d) => ({ status: effectiveStatus(d.status, d.expiracao_at, now), signed_at: d.signed_at })),
      now,
    );
    if (!verdict.allowed && verdict.reason === "retained") {
      throw new AppError("PATIENT_ANONYMIZE_RETAINED", RETENTION_MESSAGES.anonymizeRetained(verdict.until), {
        details: { guardar_ate: verdict.until?.toISOString() ?? null },
      });
    }
    if (!verdict.allowed)
      throw new AppError("PATIENT_ANONYMIZE_PENDING", RETENTION_MESSAGES.anonymizePending(verdict.count));

    const context = { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit };
    for (const document of documents) {
      await deleteDocumentRows(tx, actor.tenantId, document);
      await recordAuditEvent(tx, context, {
        action: "document.deleted",
        entityType: "contrato",
        entityId: document.id,
        data: { paciente_id: patient.id, status: document.status, motivo: "anonimização do paciente" },
      });
    }
    const [row] = await tx
      .update(pacientes)
      .set({
        nome: ANONYMIZED_NAME,
        cpf: null,
        data_nascimento: null,
        sexo: null,
        telefone: null,
        email: null,
        cep: null,
        logradouro: null,
        numero: null,
        complemento: null,
        bairro: null,
        cidade: null,
        uf: null,
        responsavel_nome: null,
        responsavel_cpf: null,
        responsavel_email: null,
        responsavel_telefone: null,
        feegow_patient_id: null,
        updated_at: now,
      })
      .where(and(eq(pacientes.tenant_id, actor.tenantId), eq(pacientes.id, patient.id)))
      .returning();
    if (!row) throw new AppError("NOT_FOUND", "Paciente não encontrado");
    // The event names no personal data (the trail is append-only: it would outlive the anonymization).
    await recordAuditEvent(tx, context, {
      action: "patient.anonymized",
      entityType: "paciente",
      entityId: patient.id,
      data: { documentos_excluidos: documents.length },
    });
    return presentPatient(row, 0);
  });
}
