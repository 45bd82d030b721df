import { and, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { contratoPartes, contratos, profiles } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { AppError } from "../../errors.js";
import { describeDevice } from "../../lib/device.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import { verifyPassword } from "../../lib/passwords.js";
import type { Actor } from "../../policies/roles.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { recordSigningFailure, recordSigningFailureIn } from "./record-signing-failure.js";
import { assertProfessionalCanSign } from "./professional-can-sign.js";
import { consumeProfessionalCode, matchProfessionalCode } from "./professional-signing-code.js";
import { type EmailChannel, professionalCodeSetting, requiresProfessionalCode } from "./signing-settings.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { activeProfessionalCertificate } from "../certificates/load-signing-certificate.js";
import {
  everyRequiredPartySigned,
  markDocumentSigned,
  recordDocumentSigned,
  unusedVerificationCode,
} from "./complete-document.js";

const SIGNABLE = new Set(["draft", "sent", "viewed"]);

type ProfessionalAudit = { ip?: string | undefined; userAgent?: string | undefined; port?: number | undefined };

export interface ProfessionalSignature {
  assinou_em: string;
  metodo_assinatura: "eletronica" | "ICP-Brasil";
  nivel_assinatura: "avancada" | "simples";
  /** This signature was the last one: the document is now signed (decision 050). */
  documento_assinado: boolean;
}

export interface ProfessionalSigningOptions {
  now?: Date;
  /** Sign the final PDF with the professional's own ICP-Brasil A1 too. */
  withCertificate?: { secretBox: SecretBox } | null;
  /** The code sent to the professional's e-mail (decision 042): with it the signature is advanced. */
  codigo?: string | undefined;
  /** How e-mail leaves this server (the code's channel, for the evidence). */
  channel?: EmailChannel;
}

export interface SignAsProfessionalOptions extends ProfessionalSigningOptions {
  db: Db;
  codeKey: Buffer;
  actor: Actor;
  id: string;
  password: string;
  audit: ProfessionalAudit;
}

/**
 * POST /api/documents/:id/professional-signature: the responsible professional signs
 * the professional declaration as themselves — signed in, and re-entering their password, which
 * is checked against their own account — and, with the code sent to the e-mail of that account
 * (decision 042), with a second factor: then the signature is advanced; with the password alone it
 * is recorded as a simple one (login and password). Only that professional, only while the
 * document is not signed, cancelled or expired; once; and, when the clinic chose "depois do
 * paciente", after the patient (decision 050). When it is the last required signature it completes
 * the document (the finalize job, once). The party keeps their name, CPF, council and
 * the evidence of the request; it covers the document's frozen content (its SHA-256).
 */
export async function signAsProfessional({
  db,
  codeKey,
  actor,
  id,
  password,
  audit,
  ...options
}: SignAsProfessionalOptions): Promise<ProfessionalSignature> {
  const now = options.now ?? new Date();
  const me = await withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id);
    await assertProfessionalCanSign(tx, actor, document, now);
    await assertCodeWhenRequired(tx, actor, options);
    return loadMe(tx, actor);
  });
  if (!(await verifyPassword(me.password_hash, password))) {
    await recordSigningFailure(db, actor.tenantId, id, "senha", audit, actor.profileId);
    throw new AppError("WRONG_PASSWORD");
  }
  return signCheckedAsProfessional({ db, codeKey, actor, me, id, audit, ...options, now });
}

export interface BatchRowResult {
  id: string;
  ok: boolean;
  /** Present when signed. */
  assinatura?: ProfessionalSignature;
  /** Present when refused: the error code, its HTTP status and the pt-BR message. */
  erro?: { codigo: string; status: number; mensagem: string };
}

export interface SignManyAsProfessionalOptions extends ProfessionalSigningOptions {
  db: Db;
  codeKey: Buffer;
  actor: Actor;
  input: { ids: readonly string[]; password: string };
  audit: ProfessionalAudit;
}

/**
 * POST /api/documents/professional-signatures (decision 050): the responsible professional signs
 * several professional declarations at once with one password and, optionally, one code (sent to
 * all of them by sendProfessionalSigningCodes). The password is checked once; then each document
 * goes through exactly the single signature's checks and transaction, one after another, and gets
 * its own result: another clinic's id is not found, someone else's document is refused, a signed
 * one says so. A wrong password refuses the whole batch (and leaves its event on each named
 * document of this clinic that is this professional's to sign).
 */
export async function signManyAsProfessional({
  db,
  codeKey,
  actor,
  input,
  audit,
  ...options
}: SignManyAsProfessionalOptions): Promise<BatchRowResult[]> {
  const now = options.now ?? new Date();
  const ids = [...new Set(input.ids)];
  const me = await withTenant(db, actor.tenantId, async (tx) => {
    await assertCodeWhenRequired(tx, actor, options);
    return loadMe(tx, actor);
  });
  if (!(await verifyPassword(me.password_hash, input.password))) {
    const found = await withTenant(db, actor.tenantId, (tx) =>
      tx
        .select({ id: contratos.id })
        .from(contratos)
        .where(
          and(
            eq(contratos.tenant_id, actor.tenantId),
            inArray(contratos.id, ids),
            // Only their own documents: a wrong password leaves no event on a colleague's.
            eq(contratos.medico_responsavel_id, actor.profileId),
          ),
        ),
    );
    for (const row of found) await recordSigningFailure(db, actor.tenantId, row.id, "senha", audit, actor.profileId);
    throw new AppError("WRONG_PASSWORD");
  }
  const results: BatchRowResult[] = [];
  for (const id of ids) {
    try {
      await withTenant(db, actor.tenantId, async (tx) => {
        const document = await findDocumentOrThrow(tx, actor.tenantId, id);
        await assertProfessionalCanSign(tx, actor, document, now);
      });
      const assinatura = await signCheckedAsProfessional({
        db,
        codeKey,
        actor,
        me,
        id,
        audit,
        ...options,
        now,
      });
      results.push({ id, ok: true, assinatura });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ id, ok: false, erro: { codigo: error.code, status: error.status, mensagem: error.message } });
    }
  }
  return results;
}

/**
 * The clinic requires the professional's code (decision 078) and a code can reach them: the
 * password alone is refused (409) before it is even checked — nothing is signed, nothing counted.
 */
async function assertCodeWhenRequired(tx: Tx, actor: Actor, options: ProfessionalSigningOptions): Promise<void> {
  if (options.codigo !== undefined) return;
  const channel = options.channel ?? { smtp: false, usable: false, sms: false };
  if (await requiresProfessionalCode(tx, actor.tenantId, channel)) throw new AppError("PROFESSIONAL_CODE_REQUIRED");
}

type Me = typeof profiles.$inferSelect;

async function loadMe(tx: Tx, actor: Actor): Promise<Me> {
  const [me] = await tx
    .select()
    .from(profiles)
    .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, actor.profileId)))
    .limit(1);
  if (!me) throw new AppError("PROFESSIONAL_NOT_RESPONSIBLE");
  return me;
}

interface SignCheckedAsProfessionalOptions extends ProfessionalSigningOptions {
  db: Db;
  codeKey: Buffer;
  actor: Actor;
  me: Me;
  id: string;
  audit: ProfessionalAudit;
  now: Date;
}

/**
 * After the checks and the password: the code, the certificate, then one transaction with the
 * document locked that records the party and — when this was the last required signature
 * (decision 050) — completes the document: status first, then the party's event, then
 * `document.signed` and the final-PDF job (the lock order of complete-document.ts).
 */
async function signCheckedAsProfessional({
  db,
  codeKey,
  actor,
  me,
  id,
  audit,
  ...options
}: SignCheckedAsProfessionalOptions): Promise<ProfessionalSignature> {
  const { now } = options;
  const withCertificate = options.withCertificate ?? null;
  // The code: a wrong one counts its attempt and leaves its event, then is refused.
  let codeId: string | null = null;
  if (options.codigo !== undefined) {
    const codigo = options.codigo;
    codeId = await withTenant(db, actor.tenantId, async (tx) => {
      const match = await matchProfessionalCode({
        tx,
        key: codeKey,
        tenantId: actor.tenantId,
        contratoId: id,
        profileId: actor.profileId,
        code: codigo,
        now,
      });
      if (!match) await recordSigningFailureIn(tx, actor.tenantId, id, "codigo", audit, actor.profileId);
      return match;
    });
    if (!codeId) throw new AppError("SIGNING_OTP_INVALID");
  }
  const nivel = codeId ? ("avancada" as const) : ("simples" as const);
  // Why the password alone, as the registry says it (decision 078): never a guess.
  const channel = options.channel ?? { smtp: false, usable: false, sms: false };
  const motivoSimples = codeId
    ? null
    : !channel.usable
      ? "Este servidor não envia e-mails, então não havia código a confirmar."
      : (await withTenant(db, actor.tenantId, (tx) => professionalCodeSetting(tx, actor.tenantId, channel)))
        ? null
        : "A clínica não exige o código do profissional.";
  const codeChannel = codeId ? (options.channel?.smtp ? ("email" as const) : ("caixa_de_saida" as const)) : null;
  // The certificate is named now (its fingerprint goes into the event); the final PDF job signs
  // with that same certificate, or says in the registry why it could not.
  const certificate = withCertificate
    ? await activeProfessionalCertificate(db, withCertificate.secretBox, actor.tenantId, actor.profileId, now)
    : null;
  if (withCertificate && !certificate?.icpBrasil) throw new AppError("PROFESSIONAL_CERTIFICATE_MISSING");
  const certificateData = certificate
    ? {
        certificado_id: certificate.id,
        certificado_sha256: certificate.material.fingerprintSha256,
        certificado_titular: certificate.material.commonName,
      }
    : {};
  const metodo = certificate ? ("ICP-Brasil" as const) : ("eletronica" as const);
  const council =
    me.conselho_tipo && me.conselho_numero
      ? ` — ${[me.conselho_tipo, me.conselho_uf].filter(Boolean).join("-")} ${me.conselho_numero}`
      : "";
  // Looked up as the owner role (every clinic's codes), so before the tenant's transaction.
  const verificationCode = await unusedVerificationCode(db);
  try {
    return await withTenant(db, actor.tenantId, async (tx) => {
      const locked = await findDocumentOrThrow(tx, actor.tenantId, id, true);
      if (!SIGNABLE.has(locked.status)) throw new AppError("DOCUMENT_LOCKED");
      // Used once: a second request with the same code finds it consumed.
      if (codeId && !(await consumeProfessionalCode(tx, actor.tenantId, codeId, now)))
        throw new AppError("SIGNING_OTP_INVALID");
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
          otp_verificado: codeId !== null,
          // Own session + password typed again + the code from their own e-mail: advanced;
          // without the code, login and password alone: simple (decision 042).
          nivel_assinatura: nivel,
          tipo_assinatura: "senha",
          created_at: now,
        })
        .returning({ id: contratoPartes.id });
      // Signed last (the patient and the witnesses before): this signature completes the document.
      // A draft is never completed here — nobody else can have signed it.
      const completes = locked.status !== "draft" && (await everyRequiredPartySigned(tx, actor.tenantId, locked, now));
      if (completes) await markDocumentSigned(tx, actor.tenantId, { document: locked, verificationCode, now });
      const context = {
        tenantId: actor.tenantId,
        actorProfileId: actor.profileId,
        ip: audit.ip,
        userAgent: audit.userAgent,
      };
      await recordAuditEvent(tx, context, {
        action: "document.party_signed",
        entityType: "contrato",
        entityId: id,
        data: {
          parte_id: parte?.id ?? null,
          papel: "profissional",
          qualidade: `profissional responsável${council}`,
          conteudo_sha256: locked.conteudo_sha256,
          nivel,
          otp_verificado: codeId !== null,
          codigo_canal: codeChannel,
          motivo_simples: motivoSimples,
          tipo_assinatura: "senha",
          porta_origem: audit.port ?? null,
          dispositivo: describeDevice(audit.userAgent),
          metodo_assinatura: metodo,
          ...certificateData,
        },
      });
      if (completes) await recordDocumentSigned(tx, context, { document: locked, verificationCode, now });
      return {
        assinou_em: now.toISOString(),
        metodo_assinatura: metodo,
        nivel_assinatura: nivel,
        documento_assinado: completes,
      };
    });
  } catch (error) {
    if (isUniqueViolation(error, "contrato_partes_contrato_papel_ordem_unique"))
      throw new AppError("PROFESSIONAL_ALREADY_SIGNED");
    throw error;
  }
}
