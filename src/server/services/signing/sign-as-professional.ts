import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratoPartes, profiles } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { AppError } from "../../errors.js";
import { describeDevice } from "../../lib/device.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import { verifyPassword } from "../../lib/passwords.js";
import type { Actor } from "../../policies/roles.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { recordSigningFailure } from "./record-signing-failure.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { activeProfessionalCertificate } from "../certificates/load-signing-certificate.js";

const SIGNABLE = new Set(["draft", "sent", "viewed"]);

/**
 * POST /api/documents/:id/professional-signature (issue 11): the responsible professional signs
 * the professional declaration as themselves — signed in, and re-entering their password, which
 * is checked against their own account. Only that professional, only while the document is not
 * signed, cancelled or expired; once. The party keeps their name, CPF, council and the evidence
 * of the request; it covers the document's frozen content (its SHA-256).
 */
export async function signAsProfessional(
  db: Db,
  actor: Actor,
  id: string,
  password: string,
  audit: { ip?: string | undefined; userAgent?: string | undefined; port?: number | undefined },
  now = new Date(),
  /** Sign the final PDF with the professional's own ICP-Brasil A1 too (issue 12). */
  withCertificate: { secretBox: SecretBox } | null = null,
): Promise<{ assinou_em: string; metodo_assinatura: "eletronica" | "ICP-Brasil" }> {
  const checked = await withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id);
    const expired = document.status !== "draft" && document.expiracao_at.getTime() <= now.getTime();
    if (!SIGNABLE.has(document.status) || expired) {
      throw new AppError("DOCUMENT_LOCKED");
    }
    if (document.medico_responsavel_id !== actor.profileId) throw new AppError("PROFESSIONAL_NOT_RESPONSIBLE");
    const [me] = await tx.select().from(profiles).where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, actor.profileId))).limit(1);
    if (!me) throw new AppError("PROFESSIONAL_NOT_RESPONSIBLE");
    return { document, me };
  });
  if (!(await verifyPassword(checked.me.password_hash, password))) {
    await recordSigningFailure(db, actor.tenantId, id, "senha", audit, actor.profileId);
    throw new AppError("WRONG_PASSWORD");
  }
  const { document, me } = checked;
  // The certificate is named now (its fingerprint goes into the event); the final PDF job signs
  // with that same certificate, or says in the registry why it could not.
  const certificate = withCertificate ? await activeProfessionalCertificate(db, withCertificate.secretBox, actor.tenantId, actor.profileId, now) : null;
  if (withCertificate && !certificate?.icpBrasil) throw new AppError("PROFESSIONAL_CERTIFICATE_MISSING");
  const certificateData = certificate
    ? { certificado_id: certificate.id, certificado_sha256: certificate.material.fingerprintSha256, certificado_titular: certificate.material.commonName }
    : {};
  const metodo = certificate ? ("ICP-Brasil" as const) : ("eletronica" as const);
  const council = me.conselho_tipo && me.conselho_numero ? ` — ${[me.conselho_tipo, me.conselho_uf].filter(Boolean).join("-")} ${me.conselho_numero}` : "";
  try {
    return await withTenant(db, actor.tenantId, async (tx) => {
      const locked = await findDocumentOrThrow(tx, actor.tenantId, id, true);
      if (!SIGNABLE.has(locked.status)) throw new AppError("DOCUMENT_LOCKED");
      const [parte] = await tx
        .insert(contratoPartes)
        .values({
          tenant_id: actor.tenantId,
          contrato_id: id,
          papel: "profissional",
          nome: me.nome,
          qualidade: `profissional responsável${council}`,
          cpf: me.cpf,
          email: me.email,
          telefone: null,
          assinou_em: now,
          metodo_assinatura: metodo,
          assinatura_file_id: null,
          ip_address: audit.ip ?? null,
          user_agent: audit.userAgent?.slice(0, 500) ?? null,
          porta_origem: audit.port ?? null,
          dispositivo: describeDevice(audit.userAgent),
          conteudo_sha256: locked.conteudo_sha256,
          otp_verificado: false,
          // Signed in to their own account and the password typed again: uniquely theirs.
          nivel_assinatura: "avancada",
          tipo_assinatura: "senha",
          created_at: now,
        })
        .returning({ id: contratoPartes.id });
      await recordAuditEvent(
        tx,
        { tenantId: actor.tenantId, actorProfileId: actor.profileId, ip: audit.ip, userAgent: audit.userAgent },
        {
          action: "document.party_signed",
          entityType: "contrato",
          entityId: id,
          data: {
            parte_id: parte?.id ?? null,
            papel: "profissional",
            qualidade: `profissional responsável${council}`,
            conteudo_sha256: locked.conteudo_sha256,
            nivel: "avancada",
            tipo_assinatura: "senha",
            porta_origem: audit.port ?? null,
            dispositivo: describeDevice(audit.userAgent),
            metodo_assinatura: metodo,
            ...certificateData,
          },
        },
      );
      return { assinou_em: now.toISOString(), metodo_assinatura: metodo };
    });
  } catch (error) {
    if (isUniqueViolation(error, "contrato_partes_contrato_papel_ordem_unique")) throw new AppError("PROFESSIONAL_ALREADY_SIGNED");
    throw error;
  }
}
