/**
 * The signed copy by message (decision 074): the patient (or the guardian who signed) hears of
 * their signed copy on the mobile on record — by WhatsApp (Cloud API template) when the server has
 * it, else by SMS — when the clinic has no e-mail on record for them, or when their signing link
 * went by WhatsApp. The message carries their own signing link, which shows the signed copy for
 * SIGNED_LINK_DAYS after the signature, and says how to revoke. Queued in the finalize
 * transaction, once per document (the trail's 'document.signed_copy_message' is the mark, read
 * with the document row locked), retried by the worker like any job.
 */
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import {
  auditEvents,
  contratoPartes,
  contratos,
  pacientes,
  signingTokens,
  tenants,
  whatsappMessages,
} from "../../../db/schema.js";
import { isMobilePhone, maskPhone4, normalizePhone } from "../../../shared/br/phone.js";
import { formatDate } from "../../../shared/format/index.js";
import { signingPath } from "../../../shared/schemas/signing.js";
import { type ContactOwner, SIGNED_LINK_DAYS } from "../../../shared/signing-rules.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import type { JobContext } from "../../jobs/job-context.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { smsAddress } from "../messaging/zenvia-sms.js";
import { loadSignerRecord } from "../signing/signer-record.js";
import { enqueueWhatsapp, whatsappConfigured } from "../whatsapp/enqueue-whatsapp.js";

export const SIGNED_COPY_MESSAGE_ACTION = "document.signed_copy_message";

const DAY_MS = 24 * 60 * 60 * 1000;

type Contrato = Pick<typeof contratos.$inferSelect, "id" | "paciente_id" | "titulo" | "signed_at" | "status">;

/**
 * The patient's own link to the signed document (the newest link of theirs not revoked: it shows
 * the signed copy until `until`, signed_at + SIGNED_LINK_DAYS). Null without one or unsigned.
 */
export async function patientSignedLink(
  tx: Tx,
  box: SecretBox,
  tenantId: string,
  contrato: Pick<Contrato, "id" | "signed_at">,
  origin: string,
): Promise<{ link: string; until: Date } | null> {
  const [row] = await tx
    .select({ sealed: signingTokens.token_encrypted })
    .from(signingTokens)
    .where(
      and(
        eq(signingTokens.tenant_id, tenantId),
        eq(signingTokens.contrato_id, contrato.id),
        isNull(signingTokens.revoked_at),
        isNull(signingTokens.testemunha_id),
      ),
    )
    .orderBy(desc(signingTokens.created_at))
    .limit(1);
  if (!row || !contrato.signed_at) return null;
  return {
    link: `${origin}${signingPath(box.open(row.sealed).toString("utf8"))}`,
    until: new Date(contrato.signed_at.getTime() + SIGNED_LINK_DAYS * DAY_MS),
  };
}

export interface CopyRecipient {
  nome: string;
  /** The e-mail on record for the signer (never the one typed on the page: decision 045). */
  email: string | null;
  /** The mobile on record, normalized (11 digits). */
  telefone: string;
  titular: ContactOwner;
}

/**
 * Who signed on the patient's side and their mobile on record: the guardian's own contacts when
 * the guardian signed and the record has them, else the patient's (decision 068). Null without a
 * mobile.
 */
export async function signedCopyRecipient(
  tx: Tx,
  tenantId: string,
  contrato: Pick<Contrato, "id" | "paciente_id">,
): Promise<CopyRecipient | null> {
  const [party] = await tx
    .select({ papel: contratoPartes.papel, nome: contratoPartes.nome })
    .from(contratoPartes)
    .where(
      and(
        eq(contratoPartes.tenant_id, tenantId),
        eq(contratoPartes.contrato_id, contrato.id),
        inArray(contratoPartes.papel, ["paciente", "responsavel"]),
      ),
    )
    .limit(1);
  const record = party ? await loadSignerRecord(tx, tenantId, contrato.paciente_id) : undefined;
  return recipientOf(party ?? null, record ?? null);
}

/** signedCopyRecipient on rows already read. */
function recipientOf(
  party: { papel: string; nome: string } | null,
  record: {
    email: string | null;
    telefone: string | null;
    responsavel_email: string | null;
    responsavel_telefone: string | null;
  } | null,
): CopyRecipient | null {
  if (!party || !record) return null;
  const guardianEmail = record.responsavel_email?.trim() || null;
  const guardianPhone = record.responsavel_telefone?.trim() || null;
  const guardian = party.papel === "responsavel" && Boolean(guardianEmail || guardianPhone);
  const email = guardian ? guardianEmail : record.email?.trim() || null;
  const telefone = guardian ? guardianPhone : record.telefone;
  if (!isMobilePhone(telefone)) return null;
  return {
    nome: party.nome,
    email,
    telefone: normalizePhone(telefone!),
    titular: guardian ? "responsavel" : "paciente",
  };
}

const firstName = (nome: string) => nome.trim().split(/\s+/)[0] ?? nome;

/** The SMS (and the WhatsApp fallback's SMS): where the copy is, until when, and how to revoke. */
export function signedCopySmsText(input: { clinica: string; nome: string; link: string; until: Date }): string {
  const until = formatDate(input.until);
  // No document title: an SMS shows on a locked screen (decision 066, as the link and the code).
  return (
    `${input.clinica}: ${firstName(input.nome)}, sua via assinada está em ` +
    `${input.link} até ${until}. Para revogar o consentimento, sem custo, use o mesmo link até essa data; ` +
    `depois, fale com ${input.clinica}.`
  );
}

function queueSms(tx: Tx, box: SecretBox, tenantId: string, contratoId: string, telefone: string, text: string) {
  return enqueueJob(tx, {
    kind: "sms.send",
    tenantId,
    payload: { to: smsAddress(telefone), sealed: box.seal(text).toString("base64"), contratoId },
    dedupeKey: `signed-copy-sms:${contratoId}`,
    maxAttempts: 8,
  });
}

/**
 * Queues the signed copy's message in the caller's transaction (the document row locked by it),
 * audited as 'document.signed_copy_message'; returns the channel, or null when none goes: an
 * e-mail on record and a link that did not go by WhatsApp (the e-mail carries the copy), no mobile,
 * no channel on this server, no link, the document no longer signed or the link's window over, or
 * already queued for this document.
 */
export async function enqueueSignedCopyMessage(
  tx: Tx,
  ctx: Pick<JobContext, "env" | "secretBox" | "origin">,
  tenantId: string,
  document: { contrato: Contrato; clinicName: string },
  now = new Date(),
): Promise<"whatsapp" | "sms" | null> {
  const { contrato, clinicName } = document;
  // Signed and still within the link's window (a revoked document's rerun sends no "your copy").
  if (contrato.status !== "signed" || !contrato.signed_at) return null;
  if (now.getTime() >= contrato.signed_at.getTime() + SIGNED_LINK_DAYS * DAY_MS) return null;
  // In one statement (decision 073): already sent, the signer on the patient's side and their
  // record's contacts, and whether the clinic's link went by WhatsApp.
  const [facts] = await tx
    .select({
      already: sql<boolean>`exists (select 1 from ${auditEvents} a where a.tenant_id = ${contratos.tenant_id}
        and a.entity_type = 'contrato' and a.entity_id = ${contratos.id}::text and a.action = ${SIGNED_COPY_MESSAGE_ACTION})`,
      byWhatsapp: sql<boolean>`exists (select 1 from ${whatsappMessages} w where w.tenant_id = ${contratos.tenant_id}
        and w.contrato_id = ${contratos.id} and w.tipo = 'link')`,
      party: sql<{ papel: string; nome: string } | null>`(select json_build_object('papel', p.papel, 'nome', p.nome)
        from ${contratoPartes} p where p.tenant_id = ${contratos.tenant_id} and p.contrato_id = ${contratos.id}
        and p.papel in ('paciente', 'responsavel') limit 1)`,
      email: pacientes.email,
      telefone: pacientes.telefone,
      responsavel_email: pacientes.responsavel_email,
      responsavel_telefone: pacientes.responsavel_telefone,
    })
    .from(contratos)
    .leftJoin(pacientes, and(eq(pacientes.tenant_id, contratos.tenant_id), eq(pacientes.id, contratos.paciente_id)))
    .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, contrato.id)))
    .limit(1);
  if (!facts || facts.already) return null;
  const recipient = recipientOf(facts.party, facts);
  if (!recipient) return null;
  // The clinic's channel for this patient: their link went by WhatsApp (decision 059).
  if (recipient.email && !facts.byWhatsapp) return null;
  const signed = await patientSignedLink(tx, ctx.secretBox, tenantId, contrato, ctx.origin);
  if (!signed) return null;

  let canal: "whatsapp" | "sms";
  let mensagemId: string | null = null;
  if (whatsappConfigured(ctx.env)) {
    mensagemId = await enqueueWhatsapp(tx, ctx.secretBox, {
      tenantId,
      contratoId: contrato.id,
      tipo: "via_assinada",
      telefone: recipient.telefone,
      params: [firstName(recipient.nome), clinicName, contrato.titulo, signed.link, formatDate(signed.until)],
    });
    canal = "whatsapp";
  } else if (ctx.env.SMS_API_TOKEN && !recipient.email) {
    const text = signedCopySmsText({ clinica: clinicName, nome: recipient.nome, ...signed });
    await queueSms(tx, ctx.secretBox, tenantId, contrato.id, recipient.telefone, text);
    canal = "sms";
  } else {
    return null;
  }
  await recordAuditEvent(
    tx,
    { tenantId, actorProfileId: null },
    {
      action: SIGNED_COPY_MESSAGE_ACTION,
      entityType: "contrato",
      entityId: contrato.id,
      data: {
        canal,
        telefone: maskPhone4(recipient.telefone),
        email_cadastrado: Boolean(recipient.email),
        link_ate: signed.until.toISOString(),
        ...(mensagemId ? { mensagem_id: mensagemId } : {}),
        ...(recipient.titular === "responsavel" ? { contato_de: "responsavel" } : {}),
      },
    },
  );
  return canal;
}

/**
 * The WhatsApp copy's message failed for good (decision 066): by SMS instead, when the server has
 * SMS and the signer has no e-mail on record (with one, the e-mail carried the copy already) and
 * the link still shows it. Returns the masked mobile, or null when nothing went.
 */
export async function signedCopyBySms(
  tx: Tx,
  ctx: Pick<JobContext, "env" | "secretBox" | "origin">,
  tenantId: string,
  contratoId: string,
  now: Date,
): Promise<string | null> {
  if (!ctx.env.SMS_API_TOKEN) return null;
  const [contrato] = await tx
    .select({
      id: contratos.id,
      paciente_id: contratos.paciente_id,
      titulo: contratos.titulo,
      signed_at: contratos.signed_at,
      clinica: tenants.nome,
      fantasia: tenants.nome_fantasia,
    })
    .from(contratos)
    .innerJoin(tenants, eq(tenants.id, contratos.tenant_id))
    .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, contratoId)))
    .limit(1);
  if (!contrato?.signed_at) return null;
  const recipient = await signedCopyRecipient(tx, tenantId, contrato);
  if (!recipient || recipient.email) return null;
  const signed = await patientSignedLink(tx, ctx.secretBox, tenantId, contrato, ctx.origin);
  if (!signed || now.getTime() >= signed.until.getTime()) return null;
  const clinica = contrato.fantasia ?? contrato.clinica;
  const text = signedCopySmsText({ clinica, nome: recipient.nome, ...signed });
  await queueSms(tx, ctx.secretBox, tenantId, contratoId, recipient.telefone, text);
  return maskPhone4(recipient.telefone);
}
