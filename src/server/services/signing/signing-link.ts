import { eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { tenants } from "../../../db/schema.js";
import { dateInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import { type ContactOwner, requiredSigner, signerContacts } from "../../../shared/signing-rules.js";
import {
  maskEmail,
  type SigningLink,
  signingPath,
  whatsappMessage,
  whatsappUrl,
} from "../../../shared/schemas/signing.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import { loadSignerRecord } from "./signer-record.js";
import { issueSigningToken } from "./signing-tokens.js";
import { type EmailChannel, requiresEmailCode, signingRequirement } from "./signing-settings.js";

/**
 * Who a link message goes to and the clinic it talks about: the patient, or the guardian who signs
 * for them when the record has the guardian's own contacts (then the guardian's name, e-mail and
 * mobile — never the minor's); a guardian without contacts falls back to the patient's record.
 */
export interface LinkRecipients {
  patient: { nome: string; email: string | null; telefone: string | null; titular: ContactOwner };
  clinica: string;
}

export async function loadLinkRecipients(
  tx: Tx,
  tenantId: string,
  pacienteId: string,
  now = new Date(),
): Promise<LinkRecipients> {
  const record = await loadSignerRecord(tx, tenantId, pacienteId);
  const [clinic] = await tx
    .select({ nome: tenants.nome, nome_fantasia: tenants.nome_fantasia })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1);
  if (!record || !clinic) throw new AppError("NOT_FOUND", "Documento não encontrado");
  const today = dateInSaoPaulo(now);
  const contacts = signerContacts(record, today);
  const nome = contacts.titular === "responsavel" ? requiredSigner(record, today).nome || record.nome : record.nome;
  return { patient: { nome, ...contacts }, clinica: clinic.nome_fantasia ?? clinic.nome };
}

/**
 * What staff get back: the link, its deadline, the ready WhatsApp text and wa.me URL, whether an
 * e-mail was queued (and whether it can leave: without SMTP it waits in the outbox), and what the
 * signature will reach.
 */
export async function presentSigningLink(
  tx: Tx,
  tenantId: string,
  channel: EmailChannel,
  input: {
    origin: string;
    token: string;
    expiresAt: Date;
    titulo: string;
    recipients: LinkRecipients;
    emailQueued: boolean;
  },
): Promise<SigningLink> {
  const link = `${input.origin}${signingPath(input.token)}`;
  const text = whatsappMessage(input.recipients.patient.nome, input.titulo, link);
  const requirement = signingRequirement(await requiresEmailCode(tx, tenantId), channel, input.recipients.patient);
  return {
    link,
    expires_at: input.expiresAt.toISOString(),
    whatsapp_text: text,
    whatsapp_url: whatsappUrl(input.recipients.patient.telefone, text),
    email_enviado: input.emailQueued,
    email_na_caixa_de_saida: input.emailQueued && !channel.smtp,
    nivel: requirement.level,
    motivo_simples: requirement.reason,
  };
}

const deadlineFormat = new Intl.DateTimeFormat("pt-BR", {
  timeZone: "America/Sao_Paulo",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/**
 * Puts the link e-mail to the patient's registered address in the outbox (same transaction) and
 * audits it — as sent when SMTP is configured, as waiting in the outbox when it is not (no audit
 * event says an e-mail left when none could). PATIENT_EMAIL_MISSING when the patient has
 * no e-mail.
 */
export async function emailSigningLink(
  tx: Tx,
  box: SecretBox,
  audit: AuditContext,
  input: {
    contratoId: string;
    titulo: string;
    link: string;
    expiresAt: Date;
    recipients: LinkRecipients;
    smtp: boolean;
  },
): Promise<void> {
  const { patient, clinica } = input.recipients;
  if (!patient.email) throw new AppError("PATIENT_EMAIL_MISSING");
  const first = patient.nome.trim().split(/\s+/)[0] ?? patient.nome;
  const outboxId = await enqueueEmail(tx, box, {
    tenantId: audit.tenantId,
    to: patient.email,
    subject: `${clinica}: documento para assinatura — ${input.titulo}`,
    text:
      `Olá, ${first}!\n\n` +
      `${clinica} enviou o documento "${input.titulo}" para você ler e assinar eletronicamente.\n\n` +
      `Abra o link abaixo no celular ou no computador (válido até ${deadlineFormat.format(input.expiresAt)}, horário de Brasília):\n\n` +
      `${input.link}\n\n` +
      `O link é pessoal: não o encaminhe a outras pessoas.\n` +
      `Se você não reconhece este envio, ignore este e-mail ou fale com ${clinica}.`,
  });
  await recordAuditEvent(tx, audit, {
    action: input.smtp ? "document.link_emailed" : "document.link_email_outbox",
    entityType: "contrato",
    entityId: input.contratoId,
    // Masked where written (decision 051): the outbox row keeps the address; the trail needs only which one.
    data: {
      email: maskEmail(patient.email),
      outbox_id: outboxId,
      smtp: input.smtp,
      ...(patient.titular === "responsavel" ? { contato_de: "responsavel" } : {}),
    },
  });
}

/**
 * The common end of Enviar and Reenviar: a new token, the audit event, the link for staff and,
 * when asked, the e-mail to the patient, all in the caller's transaction.
 */
export async function issueAndShareLink(
  tx: Tx,
  secretBox: SecretBox,
  context: AuditContext & { actorProfileId: string },
  input: {
    document: { id: string; titulo: string; paciente_id: string };
    action: "document.sent" | "document.resent";
    expiresAt: Date;
    email: boolean;
    origin: string;
    channel: EmailChannel;
    now: Date;
  },
): Promise<SigningLink> {
  const { document, expiresAt, now } = input;
  // Production without SMTP: no e-mail into an outbox nobody reads; the link is still issued.
  const email = input.email && input.channel.usable;
  const token = await issueSigningToken(tx, secretBox, {
    tenantId: context.tenantId,
    contratoId: document.id,
    expiresAt,
    createdBy: context.actorProfileId,
    now,
  });
  await recordAuditEvent(tx, context, {
    action: input.action,
    entityType: "contrato",
    entityId: document.id,
    data: { expires_at: expiresAt.toISOString(), email },
  });
  const recipients = await loadLinkRecipients(tx, context.tenantId, document.paciente_id, now);
  const link = await presentSigningLink(tx, context.tenantId, input.channel, {
    origin: input.origin,
    token,
    expiresAt,
    titulo: document.titulo,
    recipients,
    emailQueued: email,
  });
  if (email) {
    await emailSigningLink(tx, secretBox, context, {
      contratoId: document.id,
      titulo: document.titulo,
      link: link.link,
      expiresAt,
      recipients,
      smtp: input.channel.smtp,
    });
  }
  return link;
}
