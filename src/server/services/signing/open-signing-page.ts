import { embedOrigins } from "../embedding/embed-settings.js";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { contratoRegistros, contratos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { clinicLogoUrl } from "../../../shared/clinic-logo.js";
import { shortDocumentId } from "../../../shared/schemas/document.js";
import { maskEmail, type SigningPage } from "../../../shared/schemas/signing.js";
import { formatPhone, maskPhone4 } from "../../../shared/br/phone.js";
import { formatIsoDate } from "../../../shared/document-model/document-variables.js";
import { AppError } from "../../errors.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { presentSignatures, selectSignatures } from "./load-signatures.js";
import { missingPartiesOf } from "./complete-document.js";
import { type EmailChannel, signingRequirement } from "./signing-settings.js";
import { signingState } from "./signing-state.js";
import { loadOptionalAnswers } from "./optional-answers.js";
import { maskPublicDeep } from "./public-model-mask.js";
import { withoutRightAnswers } from "../../../shared/document-model/comprehension.js";
import { answersQuestions, comprehensionSummary, publicComprehension } from "./record-comprehension.js";
import { linkSignerOf, signedAmong } from "./link-signer.js";
import { loadLinkContext } from "./link-context.js";
import { publicAudio } from "./record-audio.js";
import { findSigningTokenOrThrow, type SigningTokenRow } from "./signing-tokens.js";

export interface OpenSigningPageOptions {
  db: Db;
  storage: FileStorage;
  channel: EmailChannel;
  token: string;
  audit: { ip?: string | undefined; userAgent?: string | undefined };
  /** The code was right (POST …/verify-code). */
  revealed?: boolean;
  now?: Date;
}

/**
 * GET /api/public/sign/:token: what the signing page draws. The first opening of a sent document
 * moves it to viewed with an audit event (no actor; IP and user agent; who opened it: the link
 * signer's `papel`, and a witness's `testemunha_id`), in one transaction; later
 * openings change nothing (a conditional update: two first openings at once audit once).
 * The term never shows a full CPF, at any level and even past the code (decision 051): the page
 * asks for the full CPF and checks it, so it must not show it. A witness's page also masks the
 * patient's birth date and contacts. `revealed` (POST …/verify-code) only says the code was right.
 */
export async function openSigningPage({
  db,
  storage,
  channel,
  token,
  audit,
  revealed,
  now = new Date(),
}: OpenSigningPageOptions): Promise<SigningPage> {
  const link = await findSigningTokenOrThrow(db, token);
  const built = await withTenant(db, link.tenantId, async (tx) =>
    buildSigningPage({ tx, channel, link, audit, revealed, now, state: await loadLinkState(tx, link, now) }),
  );
  return presentSigningPage(built, storage);
}

/**
 * The document, the link's signer and the patient, and the link's state: what every public route
 * reads first — in one statement (loadLinkContext, decision 073), after the document's row lock
 * when `lock` is set. `estado` judges the link as it is now (a resend may have just revoked it).
 */
export async function loadLinkState(tx: Tx, link: SigningTokenRow, now: Date, options: { lock?: boolean } = {}) {
  const context = await loadLinkContext(tx, link, options);
  const parties = linkSignerOf({
    link,
    patient: context.patient,
    witnesses: context.witnesses,
    now,
    aRogoStored: context.document.a_rogo,
  });
  if (!parties) throw new AppError("SIGNING_LINK_INVALID");
  const estado = signingState(context.token, context.document, now, signedAmong(context.parties, parties.signer));
  return { ...context, ...parties, estado };
}
export type LinkState = Awaited<ReturnType<typeof loadLinkState>>;

/** The page without the signature images (those come from storage, after the transaction). */
export interface BuiltSigningPage {
  page: Omit<SigningPage, "assinaturas">;
  signatureRows: Awaited<ReturnType<typeof selectSignatures>>;
}

/** The signer's own page: CPF masked, no IP or user agent; the drawn image is theirs. */
export async function presentSigningPage(
  { page, signatureRows }: BuiltSigningPage,
  storage: FileStorage,
): Promise<SigningPage> {
  return { ...page, assinaturas: await presentSignatures(signatureRows, storage, "public") };
}

export interface BuildSigningPageOptions {
  tx: Tx;
  channel: EmailChannel;
  link: SigningTokenRow;
  audit: { ip?: string | undefined; userAgent?: string | undefined };
  revealed?: boolean;
  now: Date;
  state: LinkState;
}

/**
 * The page for a link whose state was just read in this transaction: an invalid link is refused,
 * a first opening moves the document to viewed (status before audit: the lock order).
 */
export async function buildSigningPage({
  tx,
  channel,
  link,
  audit,
  revealed,
  now,
  state,
}: BuildSigningPageOptions): Promise<BuiltSigningPage> {
  const { document, signer, patient, estado } = state;
  if (estado === "invalid") throw new AppError("SIGNING_LINK_INVALID");

  let status = document.status;
  if (document.status === "sent") {
    const moved = await tx
      .update(contratos)
      .set({ status: "viewed", viewed_at: now, updated_at: now })
      .where(and(eq(contratos.tenant_id, link.tenantId), eq(contratos.id, document.id), eq(contratos.status, "sent")))
      .returning({ id: contratos.id });
    if (moved.length > 0) {
      status = "viewed";
      await recordAuditEvent(
        tx,
        { tenantId: link.tenantId, actorProfileId: null, ...audit },
        {
          action: "document.viewed",
          entityType: "contrato",
          entityId: document.id,
          data: {
            via: "link",
            papel: signer.papel,
            ...(signer.testemunhaId ? { testemunha_id: signer.testemunhaId } : {}),
          },
        },
      );
    }
  }

  // The clinic, the professional and the code setting came with the link's state (decision 073).
  const clinic = state.clinic;
  const physician = state.physicianNome !== null ? { nome: state.physicianNome } : undefined;
  // The code goes to this link's signer: the patient's record, or the witness's own contacts.
  const requirement = signingRequirement(state.codeSetting, channel, {
    email: signer.email,
    telefone: signer.telefone,
  });
  const codeRequired = estado === "pending" && requirement.codeRequired;
  const channelsOf = () =>
    requirement.channels.map((canal) => ({
      canal,
      destino: canal === "email" ? maskEmail(signer.email ?? "") : maskPhone4(signer.telefone ?? ""),
    }));
  // Decision 056: the patient (or guardian) may revoke a signed consent on this link, with the signature's checks.
  // Decision 070: a consent signed "a rogo" is revoked through the clinic, never by the link.
  const revocable =
    estado === "signed" && document.status === "signed" && signer.papel !== "testemunha" && !signer.aRogo;
  const [revocation] =
    revocable && document.revogado_at
      ? await tx
          .select({ code: contratoRegistros.verification_code })
          .from(contratoRegistros)
          .where(
            and(
              eq(contratoRegistros.tenant_id, link.tenantId),
              eq(contratoRegistros.contrato_id, document.id),
              eq(contratoRegistros.tipo, "revogacao"),
              isNull(contratoRegistros.item_id),
            ),
          )
          .limit(1)
      : [];
  // Decision 057: the optional consents revoked one by one (when, and each record's code).
  const itemRevocations = revocable
    ? await tx
        .select({
          item: contratoRegistros.item_id,
          em: contratoRegistros.ocorrido_em,
          code: contratoRegistros.verification_code,
        })
        .from(contratoRegistros)
        .where(
          and(
            eq(contratoRegistros.tenant_id, link.tenantId),
            eq(contratoRegistros.contrato_id, document.id),
            isNotNull(contratoRegistros.item_id),
          ),
        )
    : [];
  const values = document.variaveis_preenchidas as Record<string, unknown>;
  const valueOf = (key: string) => (typeof values[key] === "string" ? (values[key] as string) : null);
  // The comprehension questions go without their right option: the server scores each answer (decision 061).
  const modelo = maskPublicDeep(withoutRightAnswers(document.documento), {
    cpfs: [
      patient.cpf,
      patient.responsavel_cpf,
      signer.cpf,
      valueOf("paciente_cpf"),
      valueOf("responsavel_cpf"),
      valueOf("profissional_cpf"),
      valueOf("medico_cpf"),
    ],
    ...(signer.papel === "testemunha"
      ? {
          personal: {
            dataNascimento: valueOf("paciente_data_nascimento") ?? formatIsoDate(patient.data_nascimento),
            emails: [valueOf("paciente_email"), patient.email],
            telefones: [valueOf("paciente_telefone"), patient.telefone, formatPhone(patient.telefone ?? "")],
          },
        }
      : {}),
  });
  const signatureRows = estado === "signed" ? await selectSignatures(tx, link.tenantId, document.id) : [];
  const frozenPhysician = document.variaveis_preenchidas.medico_nome;
  const waiting = estado === "signed" && document.status !== "signed";
  const missing = waiting ? missingPartiesOf(state, document, now) : null;
  // Decision 071: the sites that may show this page inside them, and the id their events name.
  const embedSites = await embedOrigins(tx, link.tenantId);
  const page: Omit<SigningPage, "assinaturas"> = {
    estado,
    documento: {
      short_id: shortDocumentId(document.id),
      titulo: document.titulo,
      status,
      created_at: document.created_at.toISOString(),
      prazo_assinatura: document.expiracao_at.toISOString(),
      modelo,
      conteudo_sha256: document.conteudo_sha256,
      clinica: clinic.nome_fantasia ?? clinic.nome ?? "",
      clinica_logo_url: clinic?.logo_sha256 ? clinicLogoUrl(clinic.logo_sha256) : null,
      profissional:
        physician?.nome ?? (typeof frozenPhysician === "string" && frozenPhysician ? frozenPhysician : null),
    },
    codigo_obrigatorio: codeRequired,
    codigo_email:
      codeRequired && requirement.channels.includes("email") && signer.email ? maskEmail(signer.email) : null,
    copia_para: signer.email ? maskEmail(signer.email) : null,
    codigo_canais: codeRequired ? channelsOf() : [],
    codigo_verificado: codeRequired && revealed === true,
    conteudo_mascarado: true,
    nivel: requirement.level,
    motivo_simples: requirement.reason,
    signatario: {
      papel: signer.papel,
      qualidade: signer.qualidade,
      paciente_nome: patient.nome,
      a_rogo: signer.aRogo ? { a_pedido_de: signer.aRogo.de, motivo: signer.aRogo.motivo } : null,
    },
    aguardando_outras_assinaturas: waiting,
    aguardando_profissional: missing !== null && missing.length === 1 && missing[0] === "profissional",
    email_configurado: channel.smtp,
    pdf_assinado_pronto: document.status === "signed" && document.signed_pdf_file_id !== null,
    audio: estado === "pending" ? await publicAudio(tx, link, document, signer) : null,
    incorporacao: embedSites.length > 0 ? { documento_id: document.id, origens: embedSites } : null,
    compreensao:
      estado === "pending" && answersQuestions(signer)
        ? publicComprehension(await comprehensionSummary(tx, link, document))
        : null,
    // Once signed, the patient's (or guardian's) own answers to the optional consents; never a witness's view (decision 057).
    ...(estado === "signed" && signer.papel !== "testemunha"
      ? {
          consentimentos_opcionais: (await loadOptionalAnswers(tx, link.tenantId, document.id)).map(
            ({ id, aceito }) => {
              const revoked = itemRevocations.find((r) => r.item === id);
              return {
                id,
                aceito,
                ...(revoked ? { revogado_em: revoked.em.toISOString(), codigo_revogacao: revoked.code } : {}),
              };
            },
          ),
        }
      : {}),
    ...(revocable
      ? {
          revogacao: {
            revogado_em: document.revogado_at?.toISOString() ?? null,
            codigo_verificacao: revocation?.code ?? null,
            codigo_obrigatorio: !document.revogado_at && requirement.codeRequired,
            codigo_canais: !document.revogado_at && requirement.codeRequired ? channelsOf() : [],
          },
        }
      : {}),
  };
  return { page, signatureRows };
}
