import type { Tx } from "../../../db/client.js";
import { isMobilePhone, maskPhone4, normalizePhone } from "../../../shared/br/phone.js";
import { OTP_TTL_MINUTES, SMS_LINK_MESSAGES } from "../../../shared/schemas/signing.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { loadLinkRecipients } from "../signing/signing-link.js";
import { smsAddress } from "./zenvia-sms.js";

/**
 * The SMS with the signing link (decision 066, "Link por SMS"): the clinic's name, the patient's
 * first name and the link — never the document's title or anything about health (an SMS can be
 * read on a locked screen).
 */
export function smsLinkText(clinica: string, nome: string, link: string, lembrete = false): string {
  const first = nome.trim().split(/\s+/)[0] ?? nome;
  return lembrete
    ? `${clinica}: lembrete, ${first}: há um documento aguardando sua assinatura. Link pessoal: ${link}`
    : `${clinica}: ${first}, há um documento para você assinar. Link pessoal: ${link}`;
}

/**
 * The SMS with a one-time code (decision 066): the clinic's name and what the code is for, never
 * the document's title (the same locked-screen rule as smsLinkText). `revogar`: the code revokes
 * a signed consent (decision 056).
 */
export function smsCodeText(clinica: string, code: string, revogar = false): string {
  return `${clinica}: seu código ${revogar ? "para revogar o seu consentimento" : "para assinar o seu documento"} é ${code}. Vale ${OTP_TTL_MINUTES} min. Não compartilhe.`;
}

/** Queues one "sms.send" with the text sealed, as every SMS of the app (decision 018). */
export async function enqueueSms(
  tx: Tx,
  secretBox: SecretBox,
  input: { tenantId: string; contratoId: string; telefone: string; text: string; now?: Date },
): Promise<void> {
  await enqueueJob(tx, {
    kind: "sms.send",
    tenantId: input.tenantId,
    payload: {
      to: smsAddress(input.telefone),
      sealed: secretBox.seal(input.text).toString("base64"),
      contratoId: input.contratoId,
    },
    maxAttempts: 4,
    ...(input.now ? { runAt: input.now } : {}),
  });
}

export type SmsLinkOutcome = { enviado: true; destino: string } | { enviado: false; motivo: string };

/**
 * On Enviar, Reenviar and "Corrigir contato" when staff ticked SMS: the link to the mobile on
 * record (the guardian's own when they sign with their contacts), with 'document.link_sms_sent'
 * naming the masked number. When SMS cannot go (no SMS on this server, no mobile) the send goes on
 * by the other channels and the answer says why (as WhatsApp never stops a send). Null when not asked.
 */
export async function smsSendLink(
  tx: Tx,
  secretBox: SecretBox,
  audit: AuditContext,
  input: {
    document: { id: string; paciente_id: string };
    link: string;
    on: boolean;
    smsConfigured: boolean;
    now: Date;
  },
): Promise<SmsLinkOutcome | null> {
  if (!input.on) return null;
  if (!input.smsConfigured) return { enviado: false, motivo: SMS_LINK_MESSAGES.notConfigured };
  const { patient, clinica } = await loadLinkRecipients(tx, audit.tenantId, input.document.paciente_id, input.now);
  if (!isMobilePhone(patient.telefone)) return { enviado: false, motivo: SMS_LINK_MESSAGES.noMobile };
  const telefone = normalizePhone(patient.telefone!);
  await enqueueSms(tx, secretBox, {
    tenantId: audit.tenantId,
    contratoId: input.document.id,
    telefone,
    text: smsLinkText(clinica, patient.nome, input.link),
    now: input.now,
  });
  const destino = maskPhone4(telefone);
  await recordAuditEvent(tx, audit, {
    action: "document.link_sms_sent",
    entityType: "contrato",
    entityId: input.document.id,
    data: {
      canal: "sms",
      telefone: destino,
      ...(patient.titular === "responsavel" ? { contato_de: "responsavel" } : {}),
    },
  });
  return { enviado: true, destino };
}
