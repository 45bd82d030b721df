import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { signingOtps } from "../../../db/schema.js";
import { codeVerdict, signingCodeMatches } from "./signing-codes.js";
import { ofSigner } from "./of-signer.js";

export interface MatchSigningCodeOptions {
  tx: Tx;
  key: Buffer;
  tenantId: string;
  contratoId: string;
  code: string;
  now: Date;
  testemunhaId: string | null;
}

/**
 * Checks the typed code against the newest unconsumed code of the document for this link's signer
 * (the patient's, or `testemunhaId`'s), in the caller's transaction: the code's id (consumed later
 * in the signing transaction), or null when it is wrong (the attempt counted — the caller commits
 * it with the failure's audit event), expired or used up (OTP_MAX_ATTEMPTS), when a new one must be
 * asked for. `key`: signingCodeKey(secretBox).
 */
export async function matchSigningCode({
  tx,
  key,
  tenantId,
  contratoId,
  code,
  now,
  testemunhaId,
}: MatchSigningCodeOptions): Promise<string | null> {
  const [otp] = await tx
    .select()
    .from(signingOtps)
    .where(
      and(
        eq(signingOtps.tenant_id, tenantId),
        eq(signingOtps.contrato_id, contratoId),
        isNull(signingOtps.consumed_at),
        ofSigner(signingOtps.testemunha_id, testemunhaId),
      ),
    )
    .orderBy(desc(signingOtps.created_at))
    .limit(1)
    .for("update");
  const verdict = codeVerdict(otp, now, (stored) => signingCodeMatches(key, contratoId, code, stored));
  if (!otp || verdict === "dead") return null;
  if (verdict === "wrong") {
    await tx
      .update(signingOtps)
      .set({ attempts: sql`${signingOtps.attempts} + 1` })
      .where(and(eq(signingOtps.tenant_id, tenantId), eq(signingOtps.id, otp.id)));
    return null;
  }
  return otp.id;
}
