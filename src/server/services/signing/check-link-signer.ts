import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { signingOtps } from "../../../db/schema.js";
import { cpfMatches, nameMatches, OTP_MAX_ATTEMPTS } from "../../../shared/schemas/signing.js";
import { SIGNING_MESSAGES } from "../../../shared/signing-rules.js";
import { AppError } from "../../errors.js";
import { matchSigningCode } from "./check-signing-code.js";
import type { LinkSigner } from "./link-signer.js";
import { recordSigningFailureIn } from "./record-signing-failure.js";

/** The refusal messages name whom the typed name and CPF were compared with. */
const MISMATCH: Record<LinkSigner["papel"], { nome?: string; cpf?: string }> = {
  paciente: {},
  responsavel: { nome: SIGNING_MESSAGES.guardianNameMismatch, cpf: SIGNING_MESSAGES.guardianCpfMismatch },
  testemunha: { nome: SIGNING_MESSAGES.witnessNameMismatch, cpf: SIGNING_MESSAGES.witnessCpfMismatch },
};

export type LinkSignerCheck = { refused: AppError } | { refused: null; otpId: string | null };

/**
 * Who is at the link, checked by the server inside the caller's transaction with the document
 * locked: the typed name equals the registered one (case, accents and spaces aside), the CPF
 * digits are equal and, when required, the e-mail or SMS code is right. A refused name, CPF or
 * code is evidence: its event is written in this transaction, which the caller commits before
 * answering with `refused`. Signing, refusing and revoking all pass here (decision 056).
 * `beforeCode` runs between the identity and the code (the signature's own checks).
 */
export async function checkLinkSigner(
  tx: Tx,
  input: {
    codeKey: Buffer;
    tenantId: string;
    contratoId: string;
    signer: LinkSigner;
    codeRequired: boolean;
    typed: { nome: string; cpf: string; codigo?: string | undefined };
    audit: { ip?: string | undefined; userAgent?: string | undefined };
    now: Date;
    beforeCode?: () => void;
  },
): Promise<LinkSignerCheck> {
  const { tenantId, contratoId, signer, typed } = input;
  const mismatch = signer.aRogo
    ? { nome: SIGNING_MESSAGES.aRogoNameMismatch, cpf: SIGNING_MESSAGES.aRogoCpfMismatch }
    : MISMATCH[signer.papel];
  const refuse = async (motivo: "nome" | "cpf" | "codigo", error: AppError) => {
    await recordSigningFailureIn(tx, tenantId, contratoId, motivo, input.audit, null, signer.testemunhaId);
    return { refused: error };
  };
  if (!nameMatches(typed.nome, signer.nome))
    return refuse("nome", new AppError("SIGNING_NAME_MISMATCH", mismatch.nome));
  if (!cpfMatches(typed.cpf, signer.cpf)) return refuse("cpf", new AppError("SIGNING_CPF_MISMATCH", mismatch.cpf));
  input.beforeCode?.();
  if (!input.codeRequired) return { refused: null, otpId: null };
  if (!typed.codigo) throw new AppError("SIGNING_OTP_REQUIRED");
  const otpId = await matchSigningCode({
    tx,
    key: input.codeKey,
    tenantId,
    contratoId,
    code: typed.codigo,
    now: input.now,
    testemunhaId: signer.testemunhaId,
  });
  if (!otpId) return refuse("codigo", new AppError("SIGNING_OTP_INVALID"));
  return { refused: null, otpId };
}

/** The matched code is spent (once: a concurrent use of the same code finds it consumed). */
export async function consumeSigningCode(tx: Tx, tenantId: string, otpId: string, now: Date): Promise<void> {
  const consumed = await tx
    .update(signingOtps)
    .set({ consumed_at: now })
    .where(
      and(
        eq(signingOtps.tenant_id, tenantId),
        eq(signingOtps.id, otpId),
        isNull(signingOtps.consumed_at),
        gt(signingOtps.expires_at, now),
        lt(signingOtps.attempts, OTP_MAX_ATTEMPTS),
      ),
    )
    .returning({ id: signingOtps.id });
  if (consumed.length === 0) throw new AppError("SIGNING_OTP_INVALID");
}
