import { aRogoOf } from "../../../shared/schemas/a-rogo.js";
import { listChoiceRecords } from "../choices/list-choice-records.js";
import { selectWitnesses } from "../witnesses/witness-rows.js";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { auditEvents, contratos, pacientes, profiles } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { auditEventLabel } from "../../../shared/audit/labels.js";
import { dateInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import { missingRoles, requiredSigner } from "../../../shared/signing-rules.js";
import { signedRoles } from "../signing/complete-document.js";
import { loadOptionalAnswers } from "../signing/optional-answers.js";
import type { DocumentDetail } from "../../../shared/schemas/document.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { presentDocumentSummary } from "../../presenters/document.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { physicianCredentials } from "../../presenters/physician.js";
import { summarySelect } from "./list-documents.js";
import { findDocumentOrThrow } from "./find-document.js";
import { apiKeyActorLabel } from "../audit/actor-label.js";

const AUDIT_LIMIT = 500;

export interface GetDocumentOptions {
  db: Db;
  actor: Actor;
  id: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/** A document with its frozen content, the people around it and its audit trail; the view is audited. */
export async function getDocument({
  db,
  actor,
  id,
  audit,
  now = new Date(),
}: GetDocumentOptions): Promise<DocumentDetail> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id);
    const [summary] = await summarySelect(tx)
      .where(and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.id, id)))
      .limit(1);
    if (!summary) throw new AppError("NOT_FOUND", "Documento não encontrado");
    const [patient] = await tx
      .select()
      .from(pacientes)
      .where(and(eq(pacientes.tenant_id, actor.tenantId), eq(pacientes.id, document.paciente_id)))
      .limit(1);
    const [physician] = document.medico_responsavel_id
      ? await tx
          .select()
          .from(profiles)
          .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, document.medico_responsavel_id)))
          .limit(1)
      : [];
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "document.viewed_by_staff", entityType: "contrato", entityId: id },
    );
    const registros = await listChoiceRecords(tx, actor.tenantId, id);
    const trail = await tx
      .select({ event: auditEvents, actor_nome: profiles.nome })
      .from(auditEvents)
      .leftJoin(profiles, eq(profiles.id, auditEvents.actor_profile_id))
      .where(
        and(
          eq(auditEvents.tenant_id, actor.tenantId),
          eq(auditEvents.entity_type, "contrato"),
          eq(auditEvents.entity_id, id),
        ),
      )
      .orderBy(asc(auditEvents.created_at), asc(auditEvents.id))
      .limit(AUDIT_LIMIT);
    const signed = await signedRoles(tx, actor.tenantId, id);
    const signer = patient ? requiredSigner(patient, dateInSaoPaulo(now)).papel : "paciente";
    const witnesses = (await selectWitnesses(tx, actor.tenantId, id)).length;
    return {
      ...presentDocumentSummary(summary, now),
      // Who still has to sign: the professional before sending, then the link signer, then the witnesses.
      assinaturas_pendentes:
        document.status === "cancelled" || document.status === "signed" || document.status === "recusado"
          ? []
          : missingRoles(signer, Boolean(document.medico_responsavel_id), signed, witnesses),
      documento: document.documento,
      conteudo_sha256: document.conteudo_sha256,
      variaveis_preenchidas: document.variaveis_preenchidas,
      conteudo_selecionado: document.conteudo_selecionado,
      paciente: patient
        ? {
            id: patient.id,
            nome: patient.nome,
            cpf: patient.cpf,
            email: patient.email,
            telefone: patient.telefone,
            data_nascimento: patient.data_nascimento,
          }
        : null,
      medico: physician
        ? {
            id: physician.id,
            nome: physician.nome,
            cpf: physician.cpf,
            email: physician.email,
            telefone: physician.telefone,
            conselho_tipo: physician.conselho_tipo,
            conselho_numero: physician.conselho_numero,
            conselho_uf: physician.conselho_uf,
            ...physicianCredentials(physician),
          }
        : null,
      has_pdf: document.pdf_file_id !== null,
      pdf_nome: null,
      cancel_reason: document.cancel_reason,
      // The signer's Sim/Não to each optional consent, once signed (decision 057).
      // …and when a "Sim" was revoked on its own later (its record's time).
      consentimentos_opcionais: (await loadOptionalAnswers(tx, actor.tenantId, id)).map((a) => ({
        ...a,
        respondido_em: a.respondido_em.toISOString(),
        revogado_em: registros.find((r) => r.item_id === a.id)?.ocorrido_em ?? null,
      })),
      compreensao_pausada_at: document.compreensao_pausada_at?.toISOString() ?? null,
      a_rogo: aRogoOf(document.a_rogo),
      registros,
      audit: trail.map(({ event, actor_nome }) => ({
        id: event.id,
        action: event.action,
        label: auditEventLabel(event.action, event.data),
        created_at: event.created_at.toISOString(),
        actor_nome: apiKeyActorLabel(event.data, actor_nome) ?? actor_nome,
        ip_address: event.ip_address,
        user_agent: event.user_agent,
        data: event.data,
      })),
    };
  });
}
