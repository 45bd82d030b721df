import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { signingTokens } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { ChoiceKind, LinkChoiceData } from "../../../shared/schemas/choices.js";
import { AppError } from "../../errors.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { checkLinkSigner, consumeSigningCode } from "../signing/check-link-signer.js";
import { hasSigned, loadLinkSigner } from "../signing/link-signer.js";
import { type EmailChannel, requiresEmailCode, signingRequirement } from "../signing/signing-settings.js";
import { signingState } from "../signing/signing-state.js";
import { findSigningTokenOrThrow } from "../signing/signing-tokens.js";
import { revocableOptionalItem } from "./optional-item.js";
import { recordChoice } from "./record-choice.js";
import { unusedChoiceCode } from "./unused-choice-code.js";

export interface LinkChoiceResult {
  estado: "recusado" | "revogado";
  em: string;
  codigo_verificacao: string;
}

export interface ChooseByLinkOptions {
  db: Db;
  codeKey: Buffer;
  channel: EmailChannel;
  token: string;
  tipo: ChoiceKind;
  /** Revoke only this optional consent (decision 057), not the whole consent. */
  itemId?: string;
  input: LinkChoiceData;
  audit: { ip?: string | undefined; userAgent?: string | undefined; embeddedIn?: string | null };
  now?: Date;
}

/**
 * The patient (or legal guardian) refuses the document before signing, or revokes the signed
 * consent, on their own link (decision 056). The same checks as the signature, in one
 * transaction with the document locked: the link as it is now, the name, the CPF and the code
 * when the clinic requires it (check-link-signer.ts) — a wrong one commits its event and is
 * refused, nothing else changes. A witness's link cannot do either. Refusing needs the link
 * waiting for this signer's signature; revoking, a signed document not yet revoked.
 */
export async function chooseByLink({
  db,
  input,
  audit,
  now = new Date(),
  ...options
}: ChooseByLinkOptions): Promise<LinkChoiceResult> {
  const { tipo } = options;
  const link = await findSigningTokenOrThrow(db, options.token);
  const verificationCode = await unusedChoiceCode(db);
  try {
    const outcome = await withTenant(db, link.tenantId, async (tx) => {
      const locked = await findDocumentOrThrow(tx, link.tenantId, link.contratoId, true).catch(() => {
        throw new AppError("SIGNING_LINK_INVALID");
      });
      const [current] = await tx
        .select({ expiresAt: signingTokens.expires_at, revokedAt: signingTokens.revoked_at })
        .from(signingTokens)
        .where(and(eq(signingTokens.tenant_id, link.tenantId), eq(signingTokens.id, link.id)))
        .limit(1);
      if (!current) throw new AppError("SIGNING_LINK_INVALID");
      const parties = await loadLinkSigner({ tx, tenantId: link.tenantId, link, document: locked, now });
      if (!parties) throw new AppError("SIGNING_LINK_INVALID");
      const { signer } = parties;
      const state = signingState(current, locked, now, await hasSigned(tx, link.tenantId, locked.id, signer));
      if (state === "invalid") throw new AppError("SIGNING_LINK_INVALID");
      if (signer.papel === "testemunha") throw new AppError("CHOICE_NOT_FOR_WITNESS");
      // Decision 070: the patient who cannot read refuses or revokes through the clinic, which records it.
      if (signer.aRogo) throw new AppError("A_ROGO_CHOICE_AT_CLINIC");
      if (tipo === "recusa" && state === "signed") throw new AppError("SIGNING_ALREADY_SIGNED");
      if (tipo === "revogacao") {
        if (locked.status !== "signed") throw new AppError("DOCUMENT_NOT_REVOCABLE");
        if (locked.revogado_at) throw new AppError("DOCUMENT_ALREADY_REVOKED");
      }
      // One optional consent: known, answered "Sim", not revoked yet — before any code is spent.
      const item =
        tipo === "revogacao" && options.itemId !== undefined
          ? await revocableOptionalItem(tx, locked, options.itemId)
          : null;
      const requirement = signingRequirement(await requiresEmailCode(tx, link.tenantId), options.channel, {
        email: signer.email,
        telefone: signer.telefone,
      });
      const identity = await checkLinkSigner(tx, {
        codeKey: options.codeKey,
        tenantId: link.tenantId,
        contratoId: locked.id,
        signer,
        codeRequired: requirement.codeRequired,
        typed: input,
        audit,
        now,
        beforeCode: () => {
          if (input.conteudo_sha256 !== locked.conteudo_sha256) throw new AppError("SIGNING_CONTENT_CHANGED");
        },
      });
      if (identity.refused) return { refused: identity.refused };
      if (identity.otpId) await consumeSigningCode(tx, link.tenantId, identity.otpId, now);
      await recordChoice(tx, {
        tenantId: link.tenantId,
        document: locked,
        tipo,
        origem: "paciente",
        meio: "link",
        nome: signer.nome,
        papel: signer.papel,
        cpf: input.cpf.replace(/\D/g, ""),
        motivo: input.motivo ?? null,
        otpVerificado: identity.otpId !== null,
        staff: null,
        audit,
        ocorridoEm: now,
        verificationCode,
        now,
        item: item ? { id: item.id, title: item.title } : null,
        embeddedIn: audit.embeddedIn ?? null,
      });
      return { refused: null };
    });
    if (outcome.refused) throw outcome.refused;
  } catch (error) {
    if (options.itemId !== undefined && isUniqueViolation(error, "contrato_registros_item_unique"))
      throw new AppError("OPTIONAL_CONSENT_ALREADY_REVOKED");
    if (isUniqueViolation(error, "contrato_registros_tipo_unique"))
      throw new AppError(tipo === "recusa" ? "SIGNING_LINK_INVALID" : "DOCUMENT_ALREADY_REVOKED");
    throw error;
  }
  return {
    estado: tipo === "recusa" ? "recusado" : "revogado",
    em: now.toISOString(),
    codigo_verificacao: verificationCode,
  };
}
