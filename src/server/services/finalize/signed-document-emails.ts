/**
 * The e-mails that carry the sealed PDF: one to each party, at the address the clinic has on record
 * for them (the typed one only when there is none: decision 045), and one to the responsible
 * physician, queued in the outbox inside the sealing transaction.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratoTestemunhas, emailOutbox, pacientes } from "../../../db/schema.js";
import { formatDate, formatDateTimeAt } from "../../../shared/format/index.js";
import { signedCopyAddress } from "../../../shared/signed-copy-address.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import type { FinalDocument } from "./final-pdf-input.js";
import { patientSignedLink } from "./signed-copy-message.js";

const firstName = (nome: string) => nome.trim().split(/\s+/)[0] ?? nome;

export interface SealedAttachment {
  fileId: string;
  filename: string;
}

type Party = FinalDocument["parties"][number];

/**
 * The address the clinic has on record for each party: the patient's, the guardian's own (or the
 * patient's when the record has no contact of the guardian), the witness's own (by order), the
 * professional's account.
 */
async function recordedAddressOf(
  tx: Tx,
  tenantId: string,
  document: Pick<FinalDocument, "contrato" | "physician">,
): Promise<(party: Party) => string | null> {
  const [patient] = await tx
    .select({
      email: pacientes.email,
      responsavel_email: pacientes.responsavel_email,
      responsavel_telefone: pacientes.responsavel_telefone,
    })
    .from(pacientes)
    .where(and(eq(pacientes.tenant_id, tenantId), eq(pacientes.id, document.contrato.paciente_id)))
    .limit(1);
  // The guardian who signed: their own e-mail when the record has contacts of theirs (never the
  // minor's then; a guardian with only a mobile gets no e-mail); none of theirs: the patient's record.
  const guardianHasContacts = Boolean(patient?.responsavel_email?.trim() || patient?.responsavel_telefone?.trim());
  const witnesses = await tx
    .select({ ordem: contratoTestemunhas.ordem, email: contratoTestemunhas.email })
    .from(contratoTestemunhas)
    .where(and(eq(contratoTestemunhas.tenant_id, tenantId), eq(contratoTestemunhas.contrato_id, document.contrato.id)));
  return (party) => {
    if (party.papel === "testemunha") return witnesses.find((w) => w.ordem === party.ordem)?.email ?? null;
    if (party.papel === "profissional") return document.physician?.email ?? null;
    if (party.papel === "responsavel" && guardianHasContacts) return patient?.responsavel_email?.trim() || null;
    return patient?.email ?? null;
  };
}

/**
 * How the patient (or guardian) takes the consent back (decision 056, LGPD art. 8 §5: "por
 * procedimento gratuito e facilitado"): their own link, which stays open SIGNED_LINK_DAYS after
 * the signature, and the clinic, always. No link: the link is gone, only the clinic is named.
 */
async function revocationParagraph(
  tx: Tx,
  box: SecretBox,
  tenantId: string,
  contrato: FinalDocument["contrato"],
  clinicName: string,
  origin: string,
): Promise<string> {
  const signed = await patientSignedLink(tx, box, tenantId, contrato, origin);
  const always = "Se mudar de ideia, você pode revogar este consentimento a qualquer momento, sem custo";
  if (!signed) return `\n${always}: fale com ${clinicName}.\n`;
  return (
    `\n${always}: até ${formatDate(signed.until)}, pelo mesmo link que você usou para assinar (${signed.link}), ` +
    `confirmando seus dados; depois dessa data, ou se preferir, fale com ${clinicName}.\n`
  );
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
  const verify = link
    ? `\nPara conferir a autenticidade, acesse ${link} (código ${contrato.verification_code}).\n`
    : "";
  const attachments = [{ fileId: attachment.fileId, filename: attachment.filename, contentType: "application/pdf" }];
  const subject = `Documento assinado: ${contrato.titulo}`;
  const sent = new Set<string>();

  const recordedAddress = await recordedAddressOf(tx, tenantId, document);
  let revoke: string | null = null;
  for (const party of parties) {
    const to = signedCopyAddress(party.email, recordedAddress(party))?.to;
    if (!to || sent.has(to)) continue;
    sent.add(to);
    const patientSide = party.papel === "paciente" || party.papel === "responsavel";
    if (patientSide) revoke ??= await revocationParagraph(tx, box, tenantId, contrato, clinicName, origin);
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
        (patientSide ? (revoke ?? "") : "") +
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
    .where(
      and(
        eq(emailOutbox.tenant_id, tenantId),
        sql`${emailOutbox.attachments} @> ${JSON.stringify([{ file_id: fileId }])}::jsonb`,
      ),
    );
  return row?.n ?? 0;
}
