import type { Tx } from "../../../db/client.js";
import {
  maskEmail,
  signingPath,
  whatsappMessage,
  whatsappUrl,
  type WitnessLink,
} from "../../../shared/schemas/signing.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import { issueSigningToken } from "../signing/signing-tokens.js";
import type { WitnessRow } from "./witness-rows.js";
import { selectWitnesses } from "./witness-rows.js";

const deadlineFormat = new Intl.DateTimeFormat("pt-BR", {
  timeZone: "America/Sao_Paulo",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** A witness's link as staff get it (to copy or send by WhatsApp). */
export function presentWitnessLink(
  witness: WitnessRow,
  input: { origin: string; token: string; expiresAt: Date; titulo: string; emailed: boolean },
): WitnessLink {
  const link = `${input.origin}${signingPath(input.token)}`;
  const text = whatsappMessage(witness.nome, input.titulo, link);
  return {
    id: witness.id,
    ordem: witness.ordem,
    nome: witness.nome,
    link,
    expires_at: input.expiresAt.toISOString(),
    whatsapp_text: text,
    whatsapp_url: whatsappUrl(witness.telefone, text),
    email_enviado: input.emailed,
  };
}

/**
 * On Enviar (decision 021): each witness named on the draft gets a link of their own (own token,
 * expiring with the document), e-mailed to the witness's own address when staff ask for e-mail
 * and the witness has one — audited as sent, or as waiting in the outbox without SMTP.
 */
export async function issueWitnessLinks(
  tx: Tx,
  secretBox: SecretBox,
  context: AuditContext & { actorProfileId: string },
  input: {
    document: { id: string; titulo: string };
    clinica: string;
    expiresAt: Date;
    email: boolean;
    smtp: boolean;
    origin: string;
    now: Date;
  },
): Promise<WitnessLink[]> {
  const witnesses = await selectWitnesses(tx, context.tenantId, input.document.id);
  const links: WitnessLink[] = [];
  for (const witness of witnesses) {
    const token = await issueSigningToken(tx, secretBox, {
      tenantId: context.tenantId,
      contratoId: input.document.id,
      expiresAt: input.expiresAt,
      createdBy: context.actorProfileId,
      now: input.now,
      testemunhaId: witness.id,
    });
    const emailed = input.email && witness.email !== null;
    const link = presentWitnessLink(witness, {
      origin: input.origin,
      token,
      expiresAt: input.expiresAt,
      titulo: input.document.titulo,
      emailed,
    });
    if (emailed && witness.email) {
      const first = witness.nome.trim().split(/\s+/)[0] ?? witness.nome;
      const outboxId = await enqueueEmail(tx, secretBox, {
        tenantId: context.tenantId,
        to: witness.email,
        subject: `${input.clinica}: documento para assinar como testemunha — ${input.document.titulo}`,
        text:
          `Olá, ${first}!\n\n` +
          `${input.clinica} indicou você como testemunha do documento "${input.document.titulo}". ` +
          `Abra o link abaixo para ler o documento e assiná-lo como testemunha (válido até ${deadlineFormat.format(input.expiresAt)}, horário de Brasília):\n\n` +
          `${link.link}\n\n` +
          `O link é pessoal: não o encaminhe a outras pessoas.\n` +
          `Se você não conhece esta clínica ou não aceitou ser testemunha, ignore este e-mail.`,
      });
      await recordAuditEvent(tx, context, {
        action: input.smtp ? "document.witness_link_emailed" : "document.witness_link_email_outbox",
        entityType: "contrato",
        entityId: input.document.id,
        data: { testemunha_id: witness.id, email: maskEmail(witness.email), outbox_id: outboxId, smtp: input.smtp },
      });
    }
    links.push(link);
  }
  return links;
}
