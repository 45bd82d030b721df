/**
 * The responsible professional's second factor (decision 042): before signing the professional
 * declaration, a 6-digit code goes to the e-mail of their own account, valid OTP_TTL_MINUTES; the
 * signature then needs the password AND the code — what makes it an advanced signature by the
 * same argument as the patient's (control of an exclusive channel), instead of login and password
 * alone. Only the code's hash is kept; a new code ends the earlier ones; five a quarter hour.
 */
import type { SecretBox } from "../../lib/secret-box.js";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Tx, Db } from "../../../db/client.js";
import { professionalSigningCodes, profiles, tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { OTP_MAX_ATTEMPTS, OTP_TTL_MINUTES, maskEmail } from "../../../shared/schemas/signing.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import { assertProfessionalCanSign } from "./professional-can-sign.js";
import {
  codeVerdict,
  hashProfessionalCode,
  newSigningCode,
  professionalCodeMatches,
  signingCodeKey,
} from "./signing-codes.js";
import type { EmailChannel } from "./signing-settings.js";

/** Codes one professional may ask for one document in a quarter hour (each sends an e-mail). */
export const PROFESSIONAL_CODES_PER_WINDOW = 5;
const WINDOW_MS = 15 * 60_000;

export interface SendProfessionalSigningCodeOptions {
  db: Db;
  box: SecretBox;
  channel: EmailChannel;
  actor: Actor;
  id: string;
  audit: { ip?: string | undefined; userAgent?: string | undefined };
  now?: Date;
}

export async function sendProfessionalSigningCode({
  db,
  box,
  channel,
  actor,
  id,
  audit,
  now = new Date(),
}: SendProfessionalSigningCodeOptions): Promise<{ enviado: true; canal: "email"; destino: string }> {
  const sent = await sendProfessionalSigningCodes({ db, box, channel, actor, ids: [id], audit, now });
  const refused = sent.recusados[0];
  if (refused) throw refused.error;
  return { enviado: true as const, canal: "email" as const, destino: sent.destino };
}

export interface SendProfessionalSigningCodesOptions {
  db: Db;
  box: SecretBox;
  channel: EmailChannel;
  actor: Actor;
  ids: readonly string[];
  audit: { ip?: string | undefined; userAgent?: string | undefined };
  now?: Date;
}

/**
 * One code for several documents (the batch signature, decision 050): each document is checked
 * like a single signature and gets a row of its own (its hash binds the code to that document, so
 * the single-document rules — five a quarter hour, a new code ends the earlier ones, one use —
 * hold per document); ONE e-mail names them all. Documents refused are returned, not coded; when
 * none is left, the first refusal is thrown.
 */
export async function sendProfessionalSigningCodes({
  db,
  box,
  channel,
  actor,
  ids,
  audit,
  now = new Date(),
}: SendProfessionalSigningCodesOptions): Promise<{
  enviado: true;
  canal: "email";
  destino: string;
  ids: string[];
  recusados: { id: string; error: AppError }[];
}> {
  if (!channel.usable) throw new AppError("PROFESSIONAL_CODE_UNAVAILABLE");
  return withTenant(db, actor.tenantId, async (tx) => {
    const [me] = await tx
      .select()
      .from(profiles)
      .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, actor.profileId)))
      .limit(1);
    if (!me) throw new AppError("PROFESSIONAL_NOT_RESPONSIBLE");
    const code = newSigningCode();
    const accepted: { id: string; titulo: string }[] = [];
    const recusados: { id: string; error: AppError }[] = [];
    // Locked in one order: two overlapping requests never wait on each other the other way round.
    for (const id of [...new Set(ids)].sort()) {
      try {
        const document = await findDocumentOrThrow(tx, actor.tenantId, id, true);
        await assertProfessionalCanSign(tx, actor, document, now);
        await issueCodeRow({ tx, box, actor, id, code, now });
        accepted.push({ id, titulo: document.titulo });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        recusados.push({ id, error });
      }
    }
    // Answered in the order asked (they were locked in id order).
    const asked = [...new Set(ids)];
    const inOrder = (a: { id: string }, b: { id: string }) => asked.indexOf(a.id) - asked.indexOf(b.id);
    accepted.sort(inOrder);
    recusados.sort(inOrder);
    const first = recusados[0];
    if (accepted.length === 0 && first) throw first.error;
    const [clinic] = await tx
      .select({ nome: tenants.nome, nome_fantasia: tenants.nome_fantasia })
      .from(tenants)
      .where(eq(tenants.id, actor.tenantId))
      .limit(1);
    const clinica = clinic ? (clinic.nome_fantasia ?? clinic.nome) : "Consentir";
    const firstName = me.nome.trim().split(/\s+/)[0] ?? me.nome;
    const what =
      accepted.length === 1
        ? `no documento "${accepted[0]?.titulo ?? ""}"`
        : `nos ${accepted.length} documentos abaixo:\n${accepted.map((d) => `- ${d.titulo}`).join("\n")}\n`;
    await enqueueEmail(tx, box, {
      tenantId: actor.tenantId,
      to: me.email,
      subject: `${clinica}: seu código de assinatura do profissional — ${code}`,
      recordedSubject: `${clinica}: seu código de assinatura do profissional`,
      text:
        `Olá, ${firstName}!\n\n` +
        `Seu código para assinar a declaração do profissional ${what} é:\n\n${code}\n\n` +
        `Ele vale ${OTP_TTL_MINUTES} minutos. Se não foi você quem pediu, não use o código e troque a sua senha do Consentir.`,
    });
    for (const document of accepted) {
      await recordAuditEvent(
        tx,
        { tenantId: actor.tenantId, actorProfileId: actor.profileId, ip: audit.ip, userAgent: audit.userAgent },
        // Without SMTP (development: the outbox viewer stands in) the trail says it was not sent.
        {
          action: channel.smtp ? "document.professional_code_sent" : "document.professional_code_outbox",
          entityType: "contrato",
          entityId: document.id,
          data: {
            email: maskEmail(me.email),
            smtp: channel.smtp,
            ...(accepted.length > 1 ? { lote: accepted.length } : {}),
          },
        },
      );
    }
    return {
      enviado: true as const,
      canal: "email" as const,
      destino: maskEmail(me.email),
      ids: accepted.map((d) => d.id),
      recusados,
    };
  });
}

interface IssueCodeRowOptions {
  tx: Tx;
  box: SecretBox;
  actor: Actor;
  id: string;
  code: string;
  now: Date;
}

/** The code's row for one document: rate-limited, and the earlier codes for it stop working. */
async function issueCodeRow({ tx, box, actor, id, code, now }: IssueCodeRowOptions): Promise<void> {
  const mine = and(
    eq(professionalSigningCodes.tenant_id, actor.tenantId),
    eq(professionalSigningCodes.contrato_id, id),
    eq(professionalSigningCodes.profile_id, actor.profileId),
  );
  const [recent] = await tx
    .select({ n: sql<number>`count(*)::int`, first: sql<Date | null>`min(${professionalSigningCodes.created_at})` })
    .from(professionalSigningCodes)
    .where(and(mine, gt(professionalSigningCodes.created_at, new Date(now.getTime() - WINDOW_MS))));
  if ((recent?.n ?? 0) >= PROFESSIONAL_CODES_PER_WINDOW) {
    const first = recent?.first ? new Date(recent.first).getTime() : now.getTime();
    const error = new AppError("RATE_LIMITED");
    error.retryAfterSeconds = Math.max(1, Math.ceil((first + WINDOW_MS - now.getTime()) / 1000));
    throw error;
  }
  await tx
    .update(professionalSigningCodes)
    .set({ expires_at: now })
    .where(and(mine, isNull(professionalSigningCodes.consumed_at), gt(professionalSigningCodes.expires_at, now)));
  await tx.insert(professionalSigningCodes).values({
    tenant_id: actor.tenantId,
    contrato_id: id,
    profile_id: actor.profileId,
    code_hash: hashProfessionalCode(signingCodeKey(box), id, actor.profileId, code),
    expires_at: new Date(now.getTime() + OTP_TTL_MINUTES * 60_000),
    created_at: now,
  });
}

export interface MatchProfessionalCodeOptions {
  tx: Tx;
  key: Buffer;
  tenantId: string;
  contratoId: string;
  profileId: string;
  code: string;
  now: Date;
}

/**
 * The newest unconsumed code of this professional for this document, when `code` matches it and
 * it is neither expired nor used up; a wrong code counts an attempt. Returns its id (consumed in
 * the signing transaction), or null.
 */
export async function matchProfessionalCode({
  tx,
  key,
  tenantId,
  contratoId,
  profileId,
  code,
  now,
}: MatchProfessionalCodeOptions): Promise<string | null> {
  const [row] = await tx
    .select()
    .from(professionalSigningCodes)
    .where(
      and(
        eq(professionalSigningCodes.tenant_id, tenantId),
        eq(professionalSigningCodes.contrato_id, contratoId),
        eq(professionalSigningCodes.profile_id, profileId),
        isNull(professionalSigningCodes.consumed_at),
      ),
    )
    .orderBy(desc(professionalSigningCodes.created_at))
    .limit(1)
    .for("update");
  const verdict = codeVerdict(row, now, (stored) =>
    professionalCodeMatches({ key, contratoId, profileId, code, storedHash: stored }),
  );
  if (!row || verdict === "dead") return null;
  if (verdict === "wrong") {
    await tx
      .update(professionalSigningCodes)
      .set({ attempts: sql`${professionalSigningCodes.attempts} + 1` })
      .where(and(eq(professionalSigningCodes.tenant_id, tenantId), eq(professionalSigningCodes.id, row.id)));
    return null;
  }
  return row.id;
}

/** Marks the code used, in the signing transaction; false when another request used it first. */
export async function consumeProfessionalCode(tx: Tx, tenantId: string, codeId: string, now: Date): Promise<boolean> {
  const used = await tx
    .update(professionalSigningCodes)
    .set({ consumed_at: now })
    .where(
      and(
        eq(professionalSigningCodes.tenant_id, tenantId),
        eq(professionalSigningCodes.id, codeId),
        isNull(professionalSigningCodes.consumed_at),
        // Still alive when used, as the patient's code is checked (sign-document.ts).
        gt(professionalSigningCodes.expires_at, now),
        lt(professionalSigningCodes.attempts, OTP_MAX_ATTEMPTS),
      ),
    )
    .returning({ id: professionalSigningCodes.id });
  return used.length === 1;
}
