import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratoRegistros, contratos } from "../../../db/schema.js";
import type { ChoiceKind, ChoiceMeans } from "../../../shared/schemas/choices.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";

export interface NewChoice {
  tenantId: string;
  /** The document row, locked FOR UPDATE by the caller (one refusal or revocation at a time). */
  document: typeof contratos.$inferSelect;
  tipo: ChoiceKind;
  origem: "paciente" | "equipe";
  meio: ChoiceMeans;
  /** The registered name of whoever refused or revoked (patient or legal guardian). */
  nome: string;
  papel: "paciente" | "responsavel";
  /** The CPF typed and checked on the link; null when staff record it. */
  cpf: string | null;
  motivo: string | null;
  otpVerificado: boolean;
  /** Staff who recorded it (null: the patient on the link). */
  staff: { profileId: string; nome: string } | null;
  audit: { ip?: string | undefined; userAgent?: string | undefined };
  ocorridoEm: Date;
  verificationCode: string;
  now: Date;
  /**
   * A revocation of this one optional consent only (decision 057), checked by the caller
   * (optional-item.ts): the document's own state is left as it is, the record names the item.
   */
  item?: { id: string; title: string } | null;
  /** Made on the page shown inside this allowed site (decision 071); null or absent: a direct link or staff. */
  embeddedIn?: string | null;
}

/**
 * The one place a refusal or revocation is written (decision 056), inside the caller's
 * transaction with the document locked: the document's state first (status recusado, or
 * revogado_at on a signed one — lock order: status before audit), then the record, the
 * 'document.refused' / 'document.revoked' event in the document's chain and the job that seals the
 * record — enqueued here, so a crash after commit still makes it once (dedupe key per record).
 * The unique (tenant, document, kind) is the last wall against a second record.
 */
export async function recordChoice(tx: Tx, input: NewChoice): Promise<{ id: string }> {
  const { tenantId, document, now } = input;
  const refusal = input.tipo === "recusa";
  const item = input.tipo === "revogacao" ? (input.item ?? null) : null;
  if (!item)
    await tx
      .update(contratos)
      .set(
        refusal
          ? {
              status: "recusado",
              recusado_at: input.ocorridoEm,
              // The refusal record's own code: /verificar tells it was refused, and when.
              verification_code: input.verificationCode,
              updated_at: now,
            }
          : { revogado_at: input.ocorridoEm, updated_at: now },
      )
      .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, document.id)));
  const [row] = await tx
    .insert(contratoRegistros)
    .values({
      tenant_id: tenantId,
      contrato_id: document.id,
      tipo: input.tipo,
      origem: input.origem,
      meio: input.meio,
      nome: input.nome,
      cpf: input.cpf,
      motivo: input.motivo,
      otp_verificado: input.otpVerificado,
      registrado_por: input.staff?.profileId ?? null,
      registrado_por_nome: input.staff?.nome ?? null,
      ocorrido_em: input.ocorridoEm,
      ip_address: input.audit.ip ?? null,
      user_agent: input.audit.userAgent?.slice(0, 500) ?? null,
      verification_code: input.verificationCode,
      original_pdf_sha256: refusal ? null : document.signed_pdf_sha256,
      original_verification_code: refusal ? null : document.verification_code,
      item_id: item?.id ?? null,
      incorporado_origem: input.embeddedIn ?? null,
      created_at: now,
    })
    .returning({ id: contratoRegistros.id });
  if (!row) throw new Error("contrato_registros insert returned no row");
  await recordAuditEvent(
    tx,
    {
      tenantId,
      actorProfileId: input.staff?.profileId ?? null,
      ip: input.audit.ip,
      userAgent: input.audit.userAgent,
    },
    {
      // An item's revocation has its own action: the document's consent stands, so webhooks and
      // notices of a revoked document (decision 062) do not fire for it.
      action: refusal ? "document.refused" : item ? "document.optional_consent_revoked" : "document.revoked",
      entityType: "contrato",
      entityId: document.id,
      data: {
        registro_id: row.id,
        origem: input.origem,
        meio: input.meio,
        papel: input.papel,
        nome: input.nome,
        motivo: input.motivo,
        otp_verificado: input.otpVerificado,
        ocorrido_em: input.ocorridoEm.toISOString(),
        codigo_verificacao: input.verificationCode,
        conteudo_sha256: document.conteudo_sha256,
        status_anterior: document.status,
        ...(item ? { item_id: item.id, item_titulo: item.title } : {}),
        ...(input.staff ? { registrado_por: input.staff.nome } : {}),
        ...(input.embeddedIn ? { incorporado: { origem: input.embeddedIn } } : {}),
        ...(refusal
          ? {}
          : {
              original_pdf_sha256: document.signed_pdf_sha256,
              original_codigo_verificacao: document.verification_code,
            }),
      },
    },
  );
  await enqueueJob(tx, {
    kind: "document.choice_record",
    payload: { registroId: row.id },
    tenantId,
    dedupeKey: `choice:${row.id}`,
    runAt: now,
  });
  return row;
}
