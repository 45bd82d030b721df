import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratos, pacientes, templates, templateVersions, tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { buildDocumentModel } from "../../../shared/document-model/build-document-model.js";
import { fillDocumentVariables, storedDocumentVariables } from "../../../shared/document-model/document-variables.js";
import { documentModelSize, documentSizeProblem } from "../../../shared/document-model/size.js";
import { parseTemplateContent } from "../../../shared/document-model/structure.js";
import { documentValidityDays } from "../../../shared/schemas/clinic-settings.js";
import type { DocumentCreateData } from "../../../shared/schemas/document.js";
import { AppError } from "../../errors.js";
import { clinicDisplayName } from "../../presenters/pdf-parties.js";
import { physicianCredentials } from "../../presenters/physician.js";
import { canonicalSha256 } from "../../lib/content-hash.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findProcedureOrThrow } from "../procedures/procedure-visibility.js";
import { loadSelectedContent } from "./load-selected-content.js";
import { resolveResponsiblePhysician } from "./responsible-physician.js";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface CreateDocumentOptions {
  db: Db;
  actor: Actor;
  input: Omit<DocumentCreateData, "pedir_audio"> & { pedir_audio?: boolean | undefined };
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * Creates a document (spec part 1 §5 New document, part 2 §7): every variable filled from the
 * clinic's own rows, the document model frozen with its SHA-256 (DESIGN §2), expiry after the
 * clinic's validity (7 days unless Configurações says otherwise),
 * one transaction with its audit event. Returns the new id; the PDF is generated afterwards.
 */
export async function createDocument({
  db,
  actor,
  input,
  audit,
  now = new Date(),
}: CreateDocumentOptions): Promise<{ id: string }> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const [patient] = await tx
      .select()
      .from(pacientes)
      .where(and(eq(pacientes.tenant_id, actor.tenantId), eq(pacientes.id, input.paciente_id)))
      .limit(1);
    if (!patient) throw new AppError("NOT_FOUND", "Paciente não encontrado");

    const [version] = await tx
      .select({ version: templateVersions, template: templates })
      .from(templateVersions)
      .innerJoin(templates, eq(templates.id, templateVersions.template_id))
      .where(and(eq(templateVersions.tenant_id, actor.tenantId), eq(templateVersions.id, input.template_version_id)))
      .limit(1);
    if (!version) throw new AppError("NOT_FOUND", "Template não encontrado");
    if (!version.version.published_at) throw new AppError("DOCUMENT_TEMPLATE_NOT_PUBLISHED");

    const procedure = input.procedimento_id ? await findProcedureOrThrow(tx, actor, input.procedimento_id) : null;
    const physician = await resolveResponsiblePhysician(tx, actor, input.medico_responsavel_id);
    const [clinic] = await tx.select().from(tenants).where(eq(tenants.id, actor.tenantId)).limit(1);
    if (!clinic) throw new AppError("NOT_FOUND");
    const selected = await loadSelectedContent(tx, actor.tenantId, input.conteudo);

    // The clinic's validity (Configurações), 7 days by default (spec part 2 §9).
    const expiresAt = new Date(now.getTime() + documentValidityDays(clinic.settings) * DAY_MS);
    const procedimento = input.procedimento ?? procedure?.nome ?? null;
    const values = fillDocumentVariables({
      titulo: input.titulo,
      procedimento,
      data_procedimento: input.data_procedimento ?? null,
      patient,
      physician: { ...physician, ...physicianCredentials(physician) },
      clinic: { ...clinic, nome: clinicDisplayName(clinic) },
      selected,
      custom: input.variaveis,
      createdAt: now,
      expiresAt,
    });
    const structure = parseTemplateContent(version.version.variaveis_json, version.template.titulo);
    const model = buildDocumentModel(structure, values);
    // Not said by the caller: the template version's default (decision 069).
    const pedirAudio = input.pedir_audio ?? structure.pedir_audio === true;
    // Filled values (chosen content, custom texts) can make a document far larger than its
    // template: the same render-time limits apply to what will be drawn (decision 012).
    const size = documentModelSize(model);
    const tooLarge = documentSizeProblem(size);
    if (tooLarge) throw new AppError("DOCUMENT_TOO_LARGE", tooLarge, { details: { ...size } });
    if (model.unresolved.length > 0 && !input.permitir_pendencias) {
      throw new AppError("DOCUMENT_UNRESOLVED", undefined, { details: { unresolved: model.unresolved } });
    }

    const [row] = await tx
      .insert(contratos)
      .values({
        tenant_id: actor.tenantId,
        paciente_id: patient.id,
        template_version_id: version.version.id,
        procedimento_id: procedure?.id ?? null,
        titulo: input.titulo,
        procedimento,
        data_procedimento: input.data_procedimento ?? null,
        status: "draft",
        medico_responsavel_id: physician.id,
        variaveis_preenchidas: { ...storedDocumentVariables(values), conteudo_selecionado: selected },
        conteudo_selecionado: selected,
        documento: model as unknown as Record<string, unknown>,
        conteudo_sha256: canonicalSha256(model),
        expiracao_at: expiresAt,
        pedir_audio: pedirAudio,
        created_by: actor.profileId,
        created_at: now,
        updated_at: now,
      })
      .returning({ id: contratos.id, conteudo_sha256: contratos.conteudo_sha256 });
    if (!row) throw new Error("contratos insert returned no row");
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.created",
        entityType: "contrato",
        entityId: row.id,
        data: {
          titulo: input.titulo,
          paciente_id: patient.id,
          template_version_id: version.version.id,
          medico_responsavel_id: physician.id,
          conteudo_sha256: row.conteudo_sha256,
          pendencias: model.unresolved,
          ...(pedirAudio ? { pedir_audio: true } : {}),
        },
      },
    );
    return { id: row.id };
  });
}
