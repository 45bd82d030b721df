import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { pacientes, signingOtps, tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { maskEmail, OTP_TTL_MINUTES } from "../../../shared/schemas/signing.js";
import { AppError } from "../../errors.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { hashSigningCode, newSigningCode } from "./signing-codes.js";
import { type EmailChannel, requiresEmailCode, signingRequirement } from "./signing-settings.js";
import { signingState } from "./signing-state.js";
import { findSigningTokenOrThrow } from "./signing-tokens.js";

/**
 * POST /api/public/sign/:token/code: a new 6-digit code, valid OTP_TTL_MINUTES, e-mailed to the
 * patient's REGISTERED address (never one typed on the page). Earlier codes stop working. Only the
 * code's hash is stored.
 */
export async function sendSigningCode(
  db: Db,
  channel: EmailChannel,
  token: string,
  audit: { ip?: string | undefined; userAgent?: string | undefined },
  now = new Date(),
): Promise<{ enviado: true; email: string }> {
  const link = await findSigningTokenOrThrow(db, token);
  return withTenant(db, link.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, link.tenantId, link.contratoId).catch(() => {
      throw new AppError("SIGNING_LINK_INVALID");
    });
    const estado = signingState(link, document, now);
    if (estado === "signed") throw new AppError("SIGNING_ALREADY_SIGNED");
    if (estado === "invalid") throw new AppError("SIGNING_LINK_INVALID");
    const [patient] = await tx
      .select({ nome: pacientes.nome, email: pacientes.email })
      .from(pacientes)
      .where(and(eq(pacientes.tenant_id, link.tenantId), eq(pacientes.id, document.paciente_id)))
      .limit(1);
    if (!patient?.email) throw new AppError("PATIENT_EMAIL_MISSING");
    if (!signingRequirement(await requiresEmailCode(tx, link.tenantId), channel, patient.email).codeRequired) {
      throw new AppError("BAD_REQUEST", "Este documento não pede código de verificação.");
    }
    const [clinic] = await tx.select({ nome: tenants.nome, nome_fantasia: tenants.nome_fantasia }).from(tenants).where(eq(tenants.id, link.tenantId)).limit(1);
    const clinica = clinic ? (clinic.nome_fantasia ?? clinic.nome) : "Consentir";

    await tx
      .update(signingOtps)
      .set({ expires_at: now })
      .where(
        and(
          eq(signingOtps.tenant_id, link.tenantId),
          eq(signingOtps.contrato_id, document.id),
          isNull(signingOtps.consumed_at),
          gt(signingOtps.expires_at, now),
        ),
      );
    const code = newSigningCode();
    await tx.insert(signingOtps).values({
      tenant_id: link.tenantId,
      contrato_id: document.id,
      code_hash: hashSigningCode(document.id, code),
      expires_at: new Date(now.getTime() + OTP_TTL_MINUTES * 60_000),
      created_at: now,
    });
    const first = patient.nome.trim().split(/\s+/)[0] ?? patient.nome;
    await enqueueEmail(tx, {
      tenantId: link.tenantId,
      to: patient.email,
      subject: `${clinica}: seu código para assinar — ${code}`,
      text:
        `Olá, ${first}!\n\n` +
        `Seu código para assinar o documento "${document.titulo}" é:\n\n${code}\n\n` +
        `Ele vale por ${OTP_TTL_MINUTES} minutos. Não compartilhe este código com ninguém.\n` +
        `Se você não pediu este código, ignore este e-mail.`,
    });
    await recordAuditEvent(
      tx,
      { tenantId: link.tenantId, actorProfileId: null, ...audit },
      // Without SMTP (development: the outbox viewer stands in) the trail must not say it was sent.
      {
        action: channel.smtp ? "document.otp_sent" : "document.otp_email_outbox",
        entityType: "contrato",
        entityId: document.id,
        data: { email: maskEmail(patient.email), smtp: channel.smtp },
      },
    );
    return { enviado: true as const, email: maskEmail(patient.email) };
  });
}
