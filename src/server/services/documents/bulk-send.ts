import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { contratos, pacientes, templateVersions } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { isValidCpf, normalizeCpf } from "../../../shared/br/cpf.js";
import { isMobilePhone } from "../../../shared/br/phone.js";
import {
  BULK_BATCH_MAX_AGE_MS,
  BULK_ROW_ERRORS,
  type BulkRowErrorCode,
  type BulkSendData,
  type BulkSendResult,
  type BulkSendRowResult,
} from "../../../shared/schemas/bulk-send.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { emailAwaitingProfessional } from "../signing/awaiting-professional-email.js";
import { sendDocument } from "../signing/send-document.js";
import { type EmailChannel, professionalOrder } from "../signing/signing-settings.js";
import { loadLinkRecipients } from "../signing/signing-link.js";
import { createDocument } from "./create-document.js";
import { resolveResponsiblePhysician } from "./responsible-physician.js";

export interface BulkSendChannels {
  origin: string;
  channel: EmailChannel;
  /** The WhatsApp Cloud API is configured on this server (decision 059). */
  whatsappConfigured: boolean;
}

type Audit = Omit<AuditContext, "tenantId" | "actorProfileId">;
type Log = { error(object: unknown, message: string): void };

export interface BulkSendOptions {
  db: Db;
  secretBox: SecretBox;
  actor: Actor;
  input: BulkSendData;
  channels: BulkSendChannels;
  audit: Audit;
  log: Log;
}

/** A refusal of one create or send, as its row says it: unresolved variables are named. */
function rowMessage(error: AppError): string {
  const names = error.extra.details?.unresolved;
  if (error.code !== "DOCUMENT_UNRESOLVED" || !Array.isArray(names) || names.length === 0) return error.message;
  const list = names.map((name) => `{{${String(name)}}}`).join(", ");
  return `${BULK_ROW_ERRORS.UNRESOLVED} ${list}. Preencha o cadastro ou os campos do lote, ou marque “Criar mesmo com variáveis sem valor”.`;
}

/** Is bulk sending possible for this clinic (the checks that would fail every row alike)? */
export async function bulkSendRefusal(tx: Tx, tenantId: string): Promise<AppError | null> {
  // "Antes do envio" (decision 050): each document waits for the professional's declaration.
  if ((await professionalOrder(tx, tenantId)) === "antes_do_envio") {
    return new AppError(
      "PROFESSIONAL_SIGNATURE_MISSING",
      "Nesta clínica o profissional assina a declaração antes do envio: o envio em lote não está disponível. Crie os documentos um a um ou mude a ordem em Configurações.",
    );
  }
  return null;
}

/**
 * Enviar em lote (decision 076): for each row, the patient (by id or CPF, only of this clinic),
 * a channel that reaches them, then createDocument and sendDocument — the very services of one
 * send, in one transaction per row, so a refused row leaves nothing behind and the others go on.
 * The whole request is refused (like one send) for what would fail every row: the template,
 * the responsible professional, the clinic's signing order, no channel chosen.
 */
export async function bulkSend({
  db,
  secretBox,
  actor,
  input,
  channels,
  audit,
  log,
}: BulkSendOptions): Promise<BulkSendResult> {
  const email = input.email && channels.channel.usable;
  const whatsapp = input.whatsapp !== false && channels.whatsappConfigured;
  // Decision 066: SMS when this server sends it, off unless chosen (as in one send).
  const sms = input.sms && channels.channel.sms;
  if (!email && !whatsapp && !sms) {
    const message = "Escolha ao menos um canal de envio disponível: e-mail, WhatsApp ou SMS.";
    throw new AppError("VALIDATION", message, { issues: [{ path: "email", message }] });
  }
  const now = new Date();
  const since = input.lote_desde ? new Date(input.lote_desde) : null;
  if (since && (since.getTime() < now.getTime() - BULK_BATCH_MAX_AGE_MS || since.getTime() > now.getTime() + 60_000)) {
    throw new AppError("VALIDATION", BULK_ROW_ERRORS.BATCH_TOO_OLD, {
      issues: [{ path: "lote_desde", message: BULK_ROW_ERRORS.BATCH_TOO_OLD }],
    });
  }
  const physicianId = await withTenant(db, actor.tenantId, async (tx) => {
    const [version] = await tx
      .select({ id: templateVersions.id, published_at: templateVersions.published_at })
      .from(templateVersions)
      .where(and(eq(templateVersions.tenant_id, actor.tenantId), eq(templateVersions.id, input.template_version_id)))
      .limit(1);
    if (!version) throw new AppError("NOT_FOUND", "Template não encontrado");
    if (!version.published_at) throw new AppError("DOCUMENT_TEMPLATE_NOT_PUBLISHED");
    const refusal = await bulkSendRefusal(tx, actor.tenantId);
    if (refusal) throw refusal;
    return (await resolveResponsiblePhysician(tx, actor, input.medico_responsavel_id)).id;
  });

  const seen = new Set<string>();
  const resultados: BulkSendRowResult[] = [];
  for (const [linha, row] of input.linhas.entries()) {
    const cpf = "cpf" in row ? normalizeCpf(row.cpf) || null : null;
    const base = { linha, paciente_id: null, paciente_nome: null, cpf, documento_id: null };
    const fail = (codigo: BulkRowErrorCode | string, mensagem?: string, patient?: { id: string; nome: string }) =>
      resultados.push({
        ...base,
        ...(patient ? { paciente_id: patient.id, paciente_nome: patient.nome } : {}),
        enviado: false,
        ja_enviado: false,
        email_enviado: false,
        whatsapp_enviado: false,
        sms_enviado: false,
        sms_motivo: null,
        erro: { codigo, mensagem: mensagem ?? BULK_ROW_ERRORS[codigo as BulkRowErrorCode] },
      });
    /** A row sent: now (with what reached the patient) or, without `link`, earlier in this batch. */
    const sentRow = (
      patient: { id: string; nome: string },
      documentId: string,
      link?: {
        email_enviado: boolean;
        whatsapp_enviado?: boolean | null;
        sms_enviado?: boolean | null;
        sms_motivo?: string | null;
      },
    ) =>
      resultados.push({
        ...base,
        paciente_id: patient.id,
        paciente_nome: patient.nome,
        documento_id: documentId,
        enviado: true,
        ja_enviado: !link,
        email_enviado: link?.email_enviado ?? false,
        whatsapp_enviado: link?.whatsapp_enviado === true,
        sms_enviado: link?.sms_enviado === true,
        sms_motivo: link?.sms_motivo ?? null,
        erro: null,
      });
    if ("cpf" in row && !isValidCpf(row.cpf.trim())) {
      fail("CPF_INVALID");
      continue;
    }
    const found = await withTenant(db, actor.tenantId, async (tx) => {
      const [patient] = await tx
        .select({ id: pacientes.id, nome: pacientes.nome })
        .from(pacientes)
        .where(
          and(
            eq(pacientes.tenant_id, actor.tenantId),
            "cpf" in row ? eq(pacientes.cpf, cpf ?? "") : eq(pacientes.id, row.paciente_id),
          ),
        )
        .limit(1);
      if (!patient) return null;
      // Already sent in this batch (a retried request whose answer was lost): not sent again.
      const earlier = since
        ? await sentInBatch({
            tx,
            tenantId: actor.tenantId,
            patientId: patient.id,
            versionId: input.template_version_id,
            since,
          })
        : null;
      const { patient: contact } = await loadLinkRecipients(tx, actor.tenantId, patient.id);
      const mobile = isMobilePhone(contact.telefone);
      const reachable = (email && Boolean(contact.email?.trim())) || ((whatsapp || sms) && mobile);
      return { ...patient, reachable, earlierId: earlier };
    });
    if (!found) {
      fail("cpf" in row ? "PATIENT_NOT_FOUND_BY_CPF" : "PATIENT_NOT_FOUND");
      continue;
    }
    if (seen.has(found.id)) {
      fail("PATIENT_REPEATED", undefined, found);
      continue;
    }
    seen.add(found.id);
    if (found.earlierId) {
      sentRow(found, found.earlierId);
      continue;
    }
    if (!found.reachable) {
      // Only the mobile's channels were chosen: the row says the mobile is what is missing.
      fail(email ? "NO_CHANNEL" : "NO_MOBILE", undefined, found);
      continue;
    }
    try {
      // One transaction for the row: created and sent, or nothing (the services nest as savepoints).
      const made = await db.transaction(async (tx) => {
        // Two requests of one batch at the same time (two tabs, an API client's retry while the
        // first still runs): one row per patient at a time, and the check again under the lock.
        if (since) {
          await tx.execute(
            sql`select pg_advisory_xact_lock(hashtext(${`lote:${actor.tenantId}:${found.id}:${input.template_version_id}`}))`,
          );
          const earlierId = await withTenant(tx, actor.tenantId, (scoped) =>
            sentInBatch({
              tx: scoped,
              tenantId: actor.tenantId,
              patientId: found.id,
              versionId: input.template_version_id,
              since,
            }),
          );
          if (earlierId) return { kind: "earlier" as const, earlierId };
        }
        const created = await createDocument({
          db: tx,
          actor,
          input: { ...input, paciente_id: found.id, medico_responsavel_id: physicianId },
          audit,
        });
        const sent = await sendDocument({
          db: tx,
          secretBox,
          actor,
          id: created.id,
          input: {
            email,
            whatsapp,
            sms,
            origin: channels.origin,
            channel: channels.channel,
            notifyProfessional: false,
          },
          audit,
        });
        return { kind: "made" as const, id: created.id, link: sent };
      });
      if (made.kind === "earlier") sentRow(found, made.earlierId);
      else sentRow(found, made.id, made.link);
    } catch (error) {
      if (error instanceof AppError) fail(error.code, rowMessage(error), found);
      else {
        log.error({ err: error, linha }, "bulk send row failed");
        fail("UNEXPECTED", undefined, found);
      }
    }
  }

  const enviados = resultados.filter((row) => row.enviado).length;
  const novos = resultados.filter((row) => row.enviado && !row.ja_enviado);
  await withTenant(db, actor.tenantId, async (tx) => {
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.bulk_sent",
        entityType: "template_version",
        entityId: input.template_version_id,
        data: {
          linhas: input.linhas.length,
          enviados,
          falhas: resultados.length - enviados,
          ja_enviados: enviados - novos.length,
          documentos: novos.map((row) => row.documento_id),
          ...(since ? { lote_desde: since.toISOString() } : {}),
        },
      },
    );
    // One "documentos aguardam sua assinatura" e-mail for the batch, not one per document (decision 050).
    if (novos.length > 0) {
      await emailAwaitingProfessional(tx, secretBox, {
        tenantId: actor.tenantId,
        professionalId: physicianId,
        senderId: actor.profileId,
        origin: channels.origin,
        now,
      });
    }
  });
  return { resultados, enviados, falhas: resultados.length - enviados };
}

/** A document of this template version sent to the patient since the batch began, or null. */
async function sentInBatch({
  tx,
  tenantId,
  patientId,
  versionId,
  since,
}: {
  tx: Tx;
  tenantId: string;
  patientId: string;
  versionId: string;
  since: Date;
}): Promise<string | null> {
  const [earlier] = await tx
    .select({ id: contratos.id })
    .from(contratos)
    .where(
      and(
        eq(contratos.tenant_id, tenantId),
        eq(contratos.paciente_id, patientId),
        eq(contratos.template_version_id, versionId),
        gte(contratos.created_at, since),
        inArray(contratos.status, ["sent", "viewed", "signed"]),
      ),
    )
    .limit(1);
  return earlier?.id ?? null;
}
