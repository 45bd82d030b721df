import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { contratos, signingTokens } from "../../../db/schema.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { hashToken, newToken } from "../../lib/tokens.js";
import { ofSigner } from "./of-signer.js";

/** What a token in a link points at (read before the tenant is known, as the owner role). */
export interface SigningTokenRow {
  id: string;
  tenantId: string;
  contratoId: string;
  expiresAt: Date;
  revokedAt: Date | null;
  /** The witness this link is for; null: the patient's (or guardian's) link. */
  testemunhaId: string | null;
}

/** 43 base64url characters: what newToken() makes. Anything else is not ours. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The token row for a link, or SIGNING_LINK_INVALID (never saying why). Runs without a tenant
 * (like the session lookup): the token's hash is the only key a patient holds.
 */
export async function findSigningTokenOrThrow(db: Db, token: string): Promise<SigningTokenRow> {
  if (!TOKEN_SHAPE.test(token)) throw new AppError("SIGNING_LINK_INVALID");
  const [row] = await db
    .select(TOKEN_COLUMNS)
    .from(signingTokens)
    .where(eq(signingTokens.token_hash, hashToken(token)))
    .limit(1);
  if (!row) throw new AppError("SIGNING_LINK_INVALID");
  return row;
}

const TOKEN_COLUMNS = {
  id: signingTokens.id,
  tenantId: signingTokens.tenant_id,
  contratoId: signingTokens.contrato_id,
  expiresAt: signingTokens.expires_at,
  revokedAt: signingTokens.revoked_at,
  testemunhaId: signingTokens.testemunha_id,
};

/**
 * findSigningTokenOrThrow and, in the same statement (decision 073), whether `code` is free as a
 * document verification code among every clinic's (unusedVerificationCode's check, as the owner
 * role: row-level security would hide the others; the unique index stays the last wall).
 */
export async function findSigningTokenWithCode(
  db: Db,
  token: string,
  code: string,
): Promise<{ link: SigningTokenRow; candidateFree: boolean }> {
  if (!TOKEN_SHAPE.test(token)) throw new AppError("SIGNING_LINK_INVALID");
  const [row] = await db
    .select({
      ...TOKEN_COLUMNS,
      taken: sql<boolean>`exists (select 1 from ${contratos} where ${contratos.verification_code} = ${code})`,
    })
    .from(signingTokens)
    .where(eq(signingTokens.token_hash, hashToken(token)))
    .limit(1);
  if (!row) throw new AppError("SIGNING_LINK_INVALID");
  const { taken, ...link } = row;
  return { link, candidateFree: !taken };
}

/**
 * Issues a signing link inside the caller's transaction: a 256-bit random token, its SHA-256 (the
 * lookup key) and a copy sealed with the instance key (so staff can copy the same link again).
 */
export async function issueSigningToken(
  tx: Tx,
  secretBox: SecretBox,
  input: {
    tenantId: string;
    contratoId: string;
    expiresAt: Date;
    createdBy: string | null;
    now: Date;
    testemunhaId?: string | null;
  },
): Promise<string> {
  const token = newToken();
  await tx.insert(signingTokens).values({
    tenant_id: input.tenantId,
    contrato_id: input.contratoId,
    token_hash: hashToken(token),
    token_encrypted: secretBox.seal(token),
    created_by: input.createdBy,
    created_at: input.now,
    expires_at: input.expiresAt,
    testemunha_id: input.testemunhaId ?? null,
  });
  return token;
}

/** Whose links: the patient's (testemunha_id null) or one witness's. */

/**
 * Every live token of the document's patient link stops working (Reenviar: a new link replaces
 * them); the witnesses' links are theirs and stay (decision 021).
 */
export async function revokeSigningTokens(tx: Tx, tenantId: string, contratoId: string, now: Date): Promise<void> {
  await tx
    .update(signingTokens)
    .set({ revoked_at: now })
    .where(
      and(
        eq(signingTokens.tenant_id, tenantId),
        eq(signingTokens.contrato_id, contratoId),
        isNull(signingTokens.revoked_at),
        ofSigner(signingTokens.testemunha_id, null),
      ),
    );
}

export interface CurrentSigningTokenOptions {
  tx: Tx;
  secretBox: SecretBox;
  tenantId: string;
  contratoId: string;
  now: Date;
  testemunhaId?: string | null;
}

/** The newest unrevoked, unexpired token of the document (the patient's, or `testemunhaId`'s), decrypted; null when none. */
export async function currentSigningToken({
  tx,
  secretBox,
  tenantId,
  contratoId,
  now,
  testemunhaId = null,
}: CurrentSigningTokenOptions): Promise<{ token: string; expiresAt: Date } | null> {
  const [row] = await tx
    .select({ sealed: signingTokens.token_encrypted, expiresAt: signingTokens.expires_at })
    .from(signingTokens)
    .where(
      and(
        eq(signingTokens.tenant_id, tenantId),
        eq(signingTokens.contrato_id, contratoId),
        isNull(signingTokens.revoked_at),
        gt(signingTokens.expires_at, now),
        ofSigner(signingTokens.testemunha_id, testemunhaId),
      ),
    )
    .orderBy(desc(signingTokens.created_at))
    .limit(1);
  if (!row) return null;
  return { token: secretBox.open(row.sealed).toString("utf8"), expiresAt: row.expiresAt };
}
