/**
 * A refusal's or revocation's sealed record reaches a patient who has no e-mail on record by a
 * message to their mobile (decision 074): WhatsApp (the "registro" template) when the server has
 * it, else SMS. The message cannot carry the PDF; it names what was recorded, when, and gives the
 * record's verification code with its /verificar link, where anyone can confirm it, and says the
 * clinic hands over the sealed file. Queued once per record, in the transaction that links the
 * sealed file to its row (seal-choice-record.ts), audited as 'document.choice_record_message'.
 */
import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { auditEvents, contratoRegistros, contratos } from "../../../db/schema.js";
import { isMobilePhone, maskPhone4, normalizePhone } from "../../../shared/br/phone.js";
import { dateInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import { formatDateTimeAt } from "../../../shared/format/index.js";
import { signerContacts } from "../../../shared/signing-rules.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import type { JobContext } from "../../jobs/job-context.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { verificationPath } from "../finalize/final-pdf-input.js";
import { smsAddress } from "../messaging/zenvia-sms.js";
import { frozenOptionalItem } from "./optional-item.js";
import { loadSignerRecord } from "../signing/signer-record.js";
import { enqueueWhatsapp, whatsappConfigured } from "../whatsapp/enqueue-whatsapp.js";

export const CHOICE_RECORD_MESSAGE_ACTION = "document.choice_record_message";

type Registro = Pick<
  typeof contratoRegistros.$inferSelect,
  "id" | "tipo" | "nome" | "ocorrido_em" | "verification_code" | "contrato_id"
>;

const firstName = (nome: string) => nome.trim().split(/\s+/)[0] ?? nome;

/** "a sua recusa", "a revogação do seu consentimento", "a revogação da sua autorização “…”". */
export function recordedChoice(tipo: Registro["tipo"], itemTitle: string | null): string {
  if (tipo === "recusa") return "a sua recusa";
  return itemTitle ? `a revogação da sua autorização “${itemTitle.slice(0, 40)}”` : "a revogação do seu consentimento";
}

/** The SMS (and the WhatsApp fallback's SMS): what was recorded, when, and where to confirm it. */
export function choiceRecordSmsText(input: {
  clinica: string;
  nome: string;
  o_que: string;
  em: Date;
  link: string;
}): string {
  // No document title: an SMS shows on a locked screen (decision 066, as the link and the code).
  return (
    `${input.clinica.slice(0, 40)}: ${firstName(input.nome)}, registramos ${input.o_que} ` +
    `em ${formatDateTimeAt(input.em)}. Confira em ${input.link} — o registro selado fica com a clínica, que o entrega a você.`
  );
}

/**
 * Queues the record's message in the caller's transaction; returns the channel, or null when none
 * goes: an e-mail on record (the e-mail carries the sealed PDF), no mobile, or no channel here.
 */
export async function enqueueChoiceRecordMessage(
  tx: Tx,
  ctx: Pick<JobContext, "env" | "secretBox" | "origin">,
  tenantId: string,
  input: { registro: Registro; pacienteId: string; titulo: string; clinicName: string; itemTitle: string | null },
): Promise<"whatsapp" | "sms" | null> {
  const { registro } = input;
  const record = await loadSignerRecord(tx, tenantId, input.pacienteId);
  if (!record) return null;
  const contacts = signerContacts(record, dateInSaoPaulo(registro.ocorrido_em));
  if (contacts.email?.trim() || !isMobilePhone(contacts.telefone)) return null;
  const telefone = normalizePhone(contacts.telefone!);
  const link = `${ctx.origin}${verificationPath(registro.verification_code)}`;
  const oQue = recordedChoice(registro.tipo, input.itemTitle);
  let canal: "whatsapp" | "sms";
  let mensagemId: string | null = null;
  if (whatsappConfigured(ctx.env)) {
    mensagemId = await enqueueWhatsapp(tx, ctx.secretBox, {
      tenantId,
      contratoId: registro.contrato_id,
      tipo: "registro",
      telefone,
      params: [firstName(registro.nome), input.clinicName, oQue, input.titulo, link, registro.verification_code],
    });
    canal = "whatsapp";
  } else if (ctx.env.SMS_API_TOKEN) {
    const text = choiceRecordSmsText({
      clinica: input.clinicName,
      nome: registro.nome,
      o_que: oQue,
      em: registro.ocorrido_em,
      link,
    });
    await queueRecordSms({ tx, ctx, tenantId, registro, telefone, text });
    canal = "sms";
  } else {
    return null;
  }
  await recordAuditEvent(
    tx,
    { tenantId, actorProfileId: null },
    {
      action: CHOICE_RECORD_MESSAGE_ACTION,
      entityType: "contrato",
      entityId: registro.contrato_id,
      data: {
        registro_id: registro.id,
        tipo: registro.tipo,
        canal,
        telefone: maskPhone4(telefone),
        ...(mensagemId ? { mensagem_id: mensagemId } : {}),
        ...(contacts.titular === "responsavel" ? { contato_de: "responsavel" } : {}),
      },
    },
  );
  return canal;
}

interface QueueRecordSmsOptions {
  tx: Tx;
  ctx: Pick<JobContext, "secretBox">;
  tenantId: string;
  registro: Pick<Registro, "id" | "contrato_id">;
  telefone: string;
  text: string;
}

function queueRecordSms({ tx, ctx, tenantId, registro, telefone, text }: QueueRecordSmsOptions) {
  return enqueueJob(tx, {
    kind: "sms.send",
    tenantId,
    payload: {
      to: smsAddress(telefone),
      sealed: ctx.secretBox.seal(text).toString("base64"),
      contratoId: registro.contrato_id,
    },
    dedupeKey: `choice-record-sms:${registro.id}`,
    maxAttempts: 8,
  });
}

/**
 * The record's WhatsApp message failed for good (decision 066): the same by SMS, when the server
 * has SMS. Returns the masked mobile, or null when nothing went.
 */
export async function choiceRecordBySms(
  tx: Tx,
  ctx: Pick<JobContext, "env" | "secretBox" | "origin">,
  tenantId: string,
  input: { contratoId: string; messageId: string; pacienteId: string; titulo: string; clinicName: string },
): Promise<string | null> {
  if (!ctx.env.SMS_API_TOKEN) return null;
  const events = await tx
    .select({ data: auditEvents.data })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tenant_id, tenantId),
        eq(auditEvents.entity_type, "contrato"),
        eq(auditEvents.entity_id, input.contratoId),
        eq(auditEvents.action, CHOICE_RECORD_MESSAGE_ACTION),
      ),
    );
  const registroId = events
    .map((event) => event.data as { registro_id?: string; mensagem_id?: string } | null)
    .find((data) => data?.mensagem_id === input.messageId)?.registro_id;
  if (!registroId) return null;
  const [registro] = await tx
    .select()
    .from(contratoRegistros)
    .where(and(eq(contratoRegistros.tenant_id, tenantId), eq(contratoRegistros.id, registroId)))
    .limit(1);
  const record = registro ? await loadSignerRecord(tx, tenantId, input.pacienteId) : undefined;
  if (!registro || !record) return null;
  const [frozen] = registro.item_id
    ? await tx
        .select({ documento: contratos.documento })
        .from(contratos)
        .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, input.contratoId)))
        .limit(1)
    : [];
  const itemTitle = registro.item_id
    ? (frozenOptionalItem(frozen?.documento, registro.item_id)?.title ?? registro.item_id)
    : null;
  const contacts = signerContacts(record, dateInSaoPaulo(registro.ocorrido_em));
  if (!isMobilePhone(contacts.telefone)) return null;
  const telefone = normalizePhone(contacts.telefone!);
  const text = choiceRecordSmsText({
    clinica: input.clinicName,
    nome: registro.nome,
    o_que: recordedChoice(registro.tipo, itemTitle),
    em: registro.ocorrido_em,
    link: `${ctx.origin}${verificationPath(registro.verification_code)}`,
  });
  await queueRecordSms({ tx, ctx, tenantId, registro, telefone, text });
  return maskPhone4(telefone);
}
