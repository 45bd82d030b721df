/**
 * The e-mails that carry the sealed PDF: one to each party (the address typed when signing) and
 * one to the responsible physician, queued in the outbox inside the sealing transaction.
 */
import type { SecretBox } from "../../lib/secret-box.js";
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { emailOutbox } from "../../../db/schema.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import type { FinalDocument } from "./final-pdf-input.js";
import { formatDateTimeAt } from "../../../shared/format/index.js";


const firstName = (nome: string) => nome.trim().split(/\s+/)[0] ?? nome;

export interface SealedAttachment {
  fileId: string;
  filename: string;
}

/** Queues the messages; returns the addresses written to. */
export async function enqueueSignedDocumentEmails(
  tx: Tx,
  box: SecretBox,
  tenantId: string,
  document: Pick<FinalDocument, "contrato" | "clinicName" | "physician" | "parties">,
  attachment: SealedAttachment,
  origin: string,
): Promise<string[]> {
  const { contrato, clinicName, physician, parties } = document;
  const link = contrato.verification_code ? `${origin}/verificar/${contrato.verification_code}` : null;
  const verify = link ? `\nPara conferir a autenticidade, acesse ${link} (código ${contrato.verification_code}).\n` : "";
  const attachments = [{ fileId: attachment.fileId, filename: attachment.filename, contentType: "application/pdf" }];
  const subject = `Documento assinado: ${contrato.titulo}`;
  const sent = new Set<string>();

  for (const party of parties) {
    const to = party.email.trim().toLowerCase();
    if (!to || sent.has(to)) continue;
    sent.add(to);
    await enqueueEmail(tx, box, {
      tenantId,
      to,
      subject,
      text:
        `Olá, ${firstName(party.nome)}!\n\n` +
        `O documento "${contrato.titulo}" de ${clinicName} foi assinado eletronicamente por você em ` +
        `${formatDateTimeAt(party.assinou_em)} (horário de Brasília).\n\n` +
        "Segue em anexo a via assinada: o PDF com as assinaturas, o registro de assinaturas e o selo digital.\n" +
        verify +
        `\nAtenciosamente,\n${clinicName}\n`,
      attachments,
    });
  }

  const physicianEmail = physician?.email.trim().toLowerCase();
  if (physician && physicianEmail && !sent.has(physicianEmail)) {
    sent.add(physicianEmail);
    const signers = parties.map((p) => p.nome).join(", ");
    await enqueueEmail(tx, box, {
      tenantId,
      to: physicianEmail,
      subject,
      text:
        `Olá, ${physician.nome}!\n\n` +
        `O documento "${contrato.titulo}" foi assinado por ${signers || "o paciente"}.\n\n` +
        "Segue em anexo a via assinada: o PDF com as assinaturas, o registro de assinaturas e o selo digital.\n" +
        verify +
        "\nConsentir\n",
      attachments,
    });
  }
  return [...sent];
}

/** How many outbox messages already carry this file. */
export async function emailsWithAttachment(tx: Tx, tenantId: string, fileId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.tenant_id, tenantId), sql`${emailOutbox.attachments} @> ${JSON.stringify([{ file_id: fileId }])}::jsonb`));
  return row?.n ?? 0;
}
