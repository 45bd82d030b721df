import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { signingOtps } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { maskEmail, OTP_TTL_MINUTES } from "../../../shared/schemas/signing.js";
import { AppError } from "../../errors.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import { hashSigningCode, newSigningCode, signingCodeKey } from "./signing-codes.js";
import { type CodeChannel, type EmailChannel, signingRequirement } from "./signing-settings.js";
import { maskPhone4, normalizePhone } from "../../../shared/br/phone.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import { smsAddress } from "../messaging/zenvia-sms.js";
import { smsCodeText } from "../messaging/sms-send-link.js";
import { loadLinkState } from "./open-signing-page.js";
import { findSigningTokenOrThrow } from "./signing-tokens.js";
import { ofSigner } from "./of-signer.js";
import { enqueueWhatsapp } from "../whatsapp/enqueue-whatsapp.js";

export interface SendSigningCodeOptions {
  db: Db;
  secretBox: SecretBox;
  channel: EmailChannel;
  token: string;
  audit: { ip?: string | undefined; userAgent?: string | undefined };
  choice?: { canal?: CodeChannel | undefined };
  now?: Date;
}

/**
 * POST /api/public/sign/:token/code: a new 6-digit code, valid OTP_TTL_MINUTES, sent to the link
 * signer's REGISTERED address (the patient's record, the guardian's own contacts when the guardian
 * signs and has them, or the witness's own — never one typed on the page). This signer's earlier codes stop working. Only the code's hash is stored.
 */
export async function sendSigningCode({
  db,
  secretBox,
  channel,
  token,
  audit,
  choice = {},
  now = new Date(),
}: SendSigningCodeOptions): Promise<{ enviado: true; canal: CodeChannel; destino: string; email: string | null }> {
  const link = await findSigningTokenOrThrow(db, token);
  return withTenant(db, link.tenantId, async (tx) => {
    // The document, the signer, the parties and the clinic in one statement (decision 073).
    const state = await loadLinkState(tx, link, now);
    const { document, signer, estado } = state;
    // A signed consent not yet revoked: the patient's code is for revoking it (decision 056).
    const revoking =
      estado === "signed" && document.status === "signed" && !document.revogado_at && signer.papel !== "testemunha";
    if (estado === "signed" && !revoking) {
      // Already revoked: said as such to the patient, whose page offered the revocation.
      if (document.revogado_at && signer.papel !== "testemunha") throw new AppError("DOCUMENT_ALREADY_REVOKED");
      throw new AppError("SIGNING_ALREADY_SIGNED");
    }
    if (estado === "invalid") throw new AppError("SIGNING_LINK_INVALID");
    const requirement = signingRequirement(state.codeSetting, channel, {
      email: signer.email,
      telefone: signer.telefone,
    });
    if (!requirement.codeRequired) throw new AppError("BAD_REQUEST", "Este documento não pede código de verificação.");
    const canal = choice.canal ?? requirement.channels[0]!;
    if (!requirement.channels.includes(canal)) {
      throw new AppError(
        "BAD_REQUEST",
        canal === "sms" || canal === "whatsapp"
          ? `Não há celular cadastrado para receber o código por ${canal === "sms" ? "SMS" : "WhatsApp"}.`
          : "Não há e-mail cadastrado para receber o código.",
      );
    }
    const clinic = state.clinic;
    const clinica = clinic.nome_fantasia ?? clinic.nome ?? "Consentir";

    await tx
      .update(signingOtps)
      .set({ expires_at: now })
      .where(
        and(
          eq(signingOtps.tenant_id, link.tenantId),
          eq(signingOtps.contrato_id, document.id),
          // Only this signer's earlier codes (each witness and the patient have their own).
          ofSigner(signingOtps.testemunha_id, signer.testemunhaId),
          isNull(signingOtps.consumed_at),
          gt(signingOtps.expires_at, now),
        ),
      );
    const code = newSigningCode();
    await tx.insert(signingOtps).values({
      tenant_id: link.tenantId,
      contrato_id: document.id,
      code_hash: hashSigningCode(signingCodeKey(secretBox), document.id, code),
      expires_at: new Date(now.getTime() + OTP_TTL_MINUTES * 60_000),
      created_at: now,
      testemunha_id: signer.testemunhaId,
    });
    const first = signer.nome.trim().split(/\s+/)[0] ?? signer.nome;
    // What the code is for, in the patient's words: never "para assinar" a consent they are revoking.
    // Before signing the same code serves the signature or the informed refusal (decision 056).
    const purpose = revoking
      ? {
          short: "para revogar o consentimento",
          long: `para revogar o seu consentimento ao documento "${document.titulo}"`,
        }
      : { short: "para assinar", long: `para assinar (ou recusar) o documento "${document.titulo}"` };
    // Whose contact the code went to: a witness's own, or — when the guardian signs with contacts
    // of their own — the guardian's (the registry names it); nothing when it is the patient's record.
    const whose = signer.testemunhaId
      ? { testemunha_id: signer.testemunhaId }
      : signer.titular === "responsavel"
        ? { contato_de: "responsavel" as const }
        : {};
    if (canal === "whatsapp") {
      // Decision 059: the authentication template to the mobile on the record; the code sealed in the job.
      const phone = normalizePhone(signer.telefone ?? "");
      await enqueueWhatsapp(tx, secretBox, {
        tenantId: link.tenantId,
        contratoId: document.id,
        tipo: "codigo",
        telefone: phone,
        params: [code],
      });
      const destino = maskPhone4(phone);
      await recordAuditEvent(
        tx,
        { tenantId: link.tenantId, actorProfileId: null, ...audit },
        {
          action: "document.otp_sent",
          entityType: "contrato",
          entityId: document.id,
          data: { canal, telefone: destino, ...whose },
        },
      );
      return { enviado: true as const, canal, destino, email: null };
    }
    if (canal === "sms") {
      // Only to the mobile on the record; the text travels sealed through the jobs table.
      const phone = normalizePhone(signer.telefone ?? "");
      const text = smsCodeText(clinica, code, revoking);
      await enqueueJob(tx, {
        kind: "sms.send",
        tenantId: link.tenantId,
        payload: { to: smsAddress(phone), sealed: secretBox.seal(text).toString("base64"), contratoId: document.id },
        maxAttempts: 4,
        runAt: now,
      });
      const destino = maskPhone4(phone);
      await recordAuditEvent(
        tx,
        { tenantId: link.tenantId, actorProfileId: null, ...audit },
        {
          action: "document.otp_sent",
          entityType: "contrato",
          entityId: document.id,
          data: { canal, telefone: destino, ...whose },
        },
      );
      return { enviado: true as const, canal, destino, email: null };
    }
    const email = signer.email ?? "";
    await enqueueEmail(tx, secretBox, {
      tenantId: link.tenantId,
      to: email,
      subject: `${clinica}: seu código ${purpose.short} — ${code}`,
      recordedSubject: `${clinica}: seu código ${purpose.short}`,
      text:
        `Olá, ${first}!\n\n` +
        `Seu código ${purpose.long} é:\n\n${code}\n\n` +
        `Ele vale por ${OTP_TTL_MINUTES} minutos. Não compartilhe este código com ninguém.\n` +
        (revoking
          ? `Se você não pediu este código, ignore este e-mail: sem ele, nada muda no seu consentimento.`
          : `Se você não pediu este código, ignore este e-mail.`),
    });
    await recordAuditEvent(
      tx,
      { tenantId: link.tenantId, actorProfileId: null, ...audit },
      // Without SMTP (development: the outbox viewer stands in) the trail must not say it was sent.
      {
        action: channel.smtp ? "document.otp_sent" : "document.otp_email_outbox",
        entityType: "contrato",
        entityId: document.id,
        data: { canal, email: maskEmail(email), smtp: channel.smtp, ...whose },
      },
    );
    return { enviado: true as const, canal, destino: maskEmail(email), email: maskEmail(email) };
  });
}
