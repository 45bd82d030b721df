/**
 * Everything the final PDF draws, read in one tenant transaction: the document and its frozen
 * model, the clinic, the responsible physician, the parties who signed (with their drawn PNGs
 * from storage), the document's audit events (with the names of the staff who acted) and the
 * SHA-256 of its draft PDF — then, once the seal is known, the document's own event chain, the
 * evidence JSON embedded in the PDF and the "Registro de assinaturas" built from them (decision 014).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import QRCode from "qrcode";
import { auditEvents, contratoPartes, contratos, files, profiles, tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { latestTrailTimestamp, type TrailTimestamp } from "../audit/trail-timestamps.js";
import { loadPdfLogo } from "../settings/logo/load-clinic-logo.js";
import { loadOptionalAnswers } from "../signing/optional-answers.js";
import type { DocumentPdfInput, DocumentPdfSignature, PdfAttachment } from "../../../pdf/document-pdf.js";
import type {
  CertificateTrust,
  RegistryNote,
  RegistryParty,
  SignatureRegistry,
  TimestampAuthorityCheck,
} from "../../../pdf/signature-registry.js";
import { auditEventLabel } from "../../../shared/audit/labels.js";
import type { DocumentModel } from "../../../shared/document-model/build-document-model.js";
import { contactSince, type PatientRecordEvent } from "../../../shared/evidence/contact-since.js";
import {
  buildDocumentChain,
  type DocumentChainEntry,
  type DocumentChainEvent,
} from "../../../shared/evidence/document-chain.js";
import {
  buildEvidence,
  canonicalJson,
  DOCUMENT_FILE,
  EVIDENCE_FILE,
  type CodeChannelUsed,
  type Evidence,
  type EvidenceParty,
  type SignedEventData,
  signedEventOf,
} from "../../../shared/evidence/evidence.js";
import { readOptionalAnswers } from "../../../shared/document-model/optional-consents.js";
import { shortDocumentId } from "../../../shared/schemas/document.js";
import { maskCpf, maskEmail } from "../../../shared/signing-rules.js";
import type { JobContext } from "../../jobs/job-context.js";
import { readComprehension } from "../../../shared/document-model/comprehension.js";
import { readAudioEvidence } from "../../../shared/audio/audio-consent.js";
import { clinicDisplayName, pdfClinic, pdfPhysician } from "../../presenters/pdf-parties.js";

/**
 * QR code of the verification link: 4 px per module, 8-bit grayscale without alpha (PDFKit then
 * embeds the PNG's compressed data as is, instead of decoding it to split an alpha channel).
 */
export const QR_OPTIONS = {
  errorCorrectionLevel: "M",
  margin: 1,
  scale: 4,
  rendererOpts: { colorType: 0 },
} as QRCode.QRCodeToDataURLOptions;

/** Public path of the verification page for a code. */
export const verificationPath = (code: string) => `/verificar/${code}`;

export interface FinalDocument {
  contrato: typeof contratos.$inferSelect;
  clinicName: string;
  physician: { nome: string; email: string } | null;
  parties: (typeof contratoPartes.$inferSelect)[];
  /** SHA-256 of each party's signature image (by party id). */
  signatureSha256: Map<string, string | null>;
  /** The PDF input without the registry and the evidence (known once the seal is loaded). */
  input: DocumentPdfInput;
  /** The document's audit events, oldest first (created_at, then the clinic chain's seq). */
  events: DocumentChainEvent[];
  /** SHA-256 of the draft PDF generated before signing, when there is one. */
  draftSha256: string | null;
  /** The patient's record as the clinic's trail keeps it: created and changed (decision 046). */
  patientRecord: PatientRecordEvent[];
  /** The clinic's latest audit-trail time-stamp, read before sealing (decision 072). */
  trailTimestamp?: TrailTimestamp | null;
}

/** Reads the document for its final PDF; null when it does not exist in this tenant. */
export async function loadFinalDocument(
  ctx: Pick<JobContext, "db" | "storage">,
  tenantId: string,
  contratoId: string,
): Promise<FinalDocument | null> {
  const read = await withTenant(ctx.db, tenantId, async (tx) => {
    const [contrato] = await tx
      .select()
      .from(contratos)
      .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, contratoId)))
      .limit(1);
    if (!contrato) return null;
    const [clinic] = await tx.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
    const [physician] = contrato.medico_responsavel_id
      ? await tx
          .select()
          .from(profiles)
          .where(and(eq(profiles.tenant_id, tenantId), eq(profiles.id, contrato.medico_responsavel_id)))
          .limit(1)
      : [];
    const [draft] = contrato.pdf_file_id
      ? await tx
          .select({ sha256: files.sha256 })
          .from(files)
          .where(and(eq(files.tenant_id, tenantId), eq(files.id, contrato.pdf_file_id)))
          .limit(1)
      : [];
    const parties = await tx
      .select({ parte: contratoPartes, imageSha256: files.sha256 })
      .from(contratoPartes)
      .leftJoin(
        files,
        and(eq(files.tenant_id, contratoPartes.tenant_id), eq(files.id, contratoPartes.assinatura_file_id)),
      )
      .where(and(eq(contratoPartes.tenant_id, tenantId), eq(contratoPartes.contrato_id, contratoId)))
      .orderBy(asc(contratoPartes.assinou_em));
    const events = await tx
      .select({ event: auditEvents, actor: profiles.nome })
      .from(auditEvents)
      .leftJoin(
        profiles,
        and(eq(profiles.tenant_id, auditEvents.tenant_id), eq(profiles.id, auditEvents.actor_profile_id)),
      )
      .where(
        and(
          eq(auditEvents.tenant_id, tenantId),
          eq(auditEvents.entity_type, "contrato"),
          eq(auditEvents.entity_id, contratoId),
        ),
      )
      .orderBy(asc(auditEvents.created_at), asc(auditEvents.seq));
    const patientRecord = await tx
      .select({
        action: auditEvents.action,
        created_at: auditEvents.created_at,
        data: auditEvents.data,
        actor: profiles.nome,
      })
      .from(auditEvents)
      .leftJoin(
        profiles,
        and(eq(profiles.tenant_id, auditEvents.tenant_id), eq(profiles.id, auditEvents.actor_profile_id)),
      )
      .where(
        and(
          eq(auditEvents.tenant_id, tenantId),
          eq(auditEvents.entity_type, "paciente"),
          eq(auditEvents.entity_id, contrato.paciente_id),
          inArray(auditEvents.action, ["patient.created", "patient.updated"]),
        ),
      )
      .orderBy(asc(auditEvents.created_at), asc(auditEvents.seq));
    return {
      contrato,
      clinic,
      physician,
      parties,
      events,
      patientRecord,
      optionalAnswers: await loadOptionalAnswers(tx, tenantId, contratoId),
      draftSha256: draft?.sha256 ?? null,
      logo: await loadPdfLogo(tx, tenantId),
      trailTimestamp: await latestTrailTimestamp(tx, tenantId),
    };
  });
  if (!read?.clinic) return null;
  const {
    contrato,
    clinic,
    physician,
    parties,
    events,
    patientRecord,
    draftSha256,
    logo,
    optionalAnswers,
    trailTimestamp,
  } = read;

  const signatures = await Promise.all(
    parties.map(async ({ parte, imageSha256 }): Promise<DocumentPdfSignature> => ({
      nome: parte.nome,
      cpf: parte.cpf,
      email: parte.email,
      telefone: parte.telefone,
      assinou_em: parte.assinou_em,
      metodo: parte.metodo_assinatura,
      imagePng: imageSha256 ? await ctx.storage.get(imageSha256) : null,
      ip: parte.ip_address,
      userAgent: parte.user_agent,
      qualidade: parte.qualidade,
      papel: parte.papel,
    })),
  );

  return {
    contrato,
    clinicName: clinicDisplayName(clinic),
    physician: physician ? { nome: physician.nome, email: physician.email } : null,
    parties: parties.map((p) => p.parte),
    signatureSha256: new Map(parties.map((p) => [p.parte.id, p.imageSha256])),
    events: events.map(({ event, actor }) => ({
      action: event.action,
      label: auditEventLabel(event.action, event.data),
      created_at: event.created_at.toISOString(),
      actor: actor ?? null,
      ip: event.ip_address,
      user_agent: event.user_agent,
      data: event.data ?? {},
      cadeia_clinica: event.seq > 0 ? { seq: event.seq, hash: event.hash } : null,
    })),
    draftSha256,
    trailTimestamp,
    patientRecord: patientRecord.map((e) => ({
      action: e.action,
      created_at: e.created_at.toISOString(),
      actor: e.actor ?? null,
      campos: Array.isArray((e.data as { campos?: unknown } | null)?.campos)
        ? (e.data as { campos: string[] }).campos
        : [],
    })),
    input: {
      model: contrato.documento as unknown as DocumentModel,
      documentId: contrato.id,
      contentSha256: contrato.conteudo_sha256,
      createdAt: contrato.created_at,
      clinic: { ...pdfClinic(clinic), logo },
      physician: pdfPhysician(physician),
      signatures,
      ...(optionalAnswers.length > 0
        ? { optionalAnswers: optionalAnswers.map(({ id, aceito }) => ({ id, aceito })) }
        : {}),
    },
  };
}

const LINK_CODE_ACTIONS = new Set(["document.otp_sent", "document.otp_email_outbox"]);
const PROFESSIONAL_CODE_ACTIONS = new Set(["document.professional_code_sent", "document.professional_code_outbox"]);
/** A code a development server kept in its outbox and never sent. */
const OUTBOX_CODE_ACTIONS = new Set(["document.otp_email_outbox", "document.professional_code_outbox"]);

/**
 * The evidence of a signed document: its parties and its own event chain (decision 014). The
 * professional's full CPF and e-mail go into the patient's PDF only when their ICP-Brasil
 * certificate signs it (`professionalCertificate`), masked otherwise (decision 051).
 */
export function documentEvidence(
  document: FinalDocument,
  options: { professionalCertificate?: boolean } = {},
): { evidence: Evidence; documentJson: string } {
  const { contrato } = document;
  const code = contrato.verification_code ?? "";
  const chain = buildDocumentChain(document.events);
  const partes = document.parties.map((parte): EvidenceParty => {
    const signed = (signedEventOf(chain, parte.id)?.data ?? {}) as SignedEventData;
    // The last code sent to THIS signer: the professional's own (decision 042), or a link signer's
    // (a witness's codes carry their testemunha_id; decision 021).
    const professional = parte.papel === "profissional";
    const otpSentTo = [...chain]
      .reverse()
      .find((e) =>
        professional
          ? PROFESSIONAL_CODE_ACTIONS.has(e.action)
          : LINK_CODE_ACTIONS.has(e.action) &&
            ((e.data as { testemunha_id?: string })?.testemunha_id ?? null) === (signed.testemunha_id ?? null),
      );
    const sentData = otpSentTo?.data as
      { email?: string; telefone?: string; canal?: string; contato_de?: string } | undefined;
    const guardianContact = parte.otp_verificado && sentData?.contato_de === "responsavel";
    const sentTo = sentData?.email ?? sentData?.telefone ?? null;
    const channel: CodeChannelUsed | null = !otpSentTo
      ? null
      : OUTBOX_CODE_ACTIONS.has(otpSentTo.action)
        ? "caixa_de_saida"
        : sentData?.canal === "whatsapp"
          ? "whatsapp"
          : sentData?.canal === "sms" || (sentData?.telefone && !sentData?.email)
            ? "sms"
            : "email";
    return {
      id: parte.id,
      papel: parte.papel,
      qualidade: parte.qualidade,
      nome: parte.nome,
      nome_digitado: signed.nome_digitado ?? null,
      ...(professional && !options.professionalCertificate
        ? { cpf: maskCpf(parte.cpf), email: parte.email ? maskEmail(parte.email) : parte.email }
        : { cpf: parte.cpf, email: parte.email }),
      telefone: parte.telefone,
      assinou_em: parte.assinou_em.toISOString(),
      metodo_assinatura: parte.metodo_assinatura,
      nivel: parte.nivel_assinatura,
      motivo_simples: parte.nivel_assinatura === "avancada" ? null : (signed.motivo_simples ?? null),
      otp_verificado: parte.otp_verificado,
      codigo_enviado_para: parte.otp_verificado ? sentTo : null,
      codigo_canal: parte.otp_verificado ? channel : null,
      ...(guardianContact ? { codigo_contato_de: "responsavel" as const } : {}),
      // What ties that contact to the patient: since when the clinic's record has had it (decision 046).
      contato_desde:
        parte.otp_verificado && otpSentTo && (parte.papel === "paciente" || parte.papel === "responsavel")
          ? contactSince(
              document.patientRecord,
              `${guardianContact ? "responsavel_" : ""}${channel === "sms" || channel === "whatsapp" ? "telefone" : "email"}`,
              otpSentTo.created_at,
            )
          : null,
      tipo_assinatura: parte.tipo_assinatura,
      dispositivo: parte.dispositivo,
      ip: parte.ip_address,
      porta_origem: parte.porta_origem,
      user_agent: parte.user_agent,
      consentimento: signed.consentimento ?? null,
      conteudo_sha256: parte.conteudo_sha256,
      assinatura_sha256: document.signatureSha256.get(parte.id) ?? null,
      ...(signed.presencial ? { presencial: { atendente_nome: signed.presencial.atendente_nome } } : {}),
      ...(signed.a_rogo ? { a_rogo: signed.a_rogo } : {}),
      ...(typeof signed.incorporado?.origem === "string" ? { incorporado: { origem: signed.incorporado.origem } } : {}),
      ...(signed.leitura ? { leitura: signed.leitura } : {}),
      ...(readComprehension(signed.compreensao) ? { compreensao: readComprehension(signed.compreensao) } : {}),
      ...(readAudioEvidence(signed.audio) ? { audio: readAudioEvidence(signed.audio)! } : {}),
      ...(signed.consentimentos_opcionais?.length
        ? { consentimentos_opcionais: readOptionalAnswers(signed.consentimentos_opcionais) }
        : {}),
    };
  });
  const evidence = buildEvidence({
    documento: {
      id: contrato.id,
      id_curto: shortDocumentId(contrato.id),
      titulo: contrato.titulo,
      clinica: document.clinicName,
      criado_em: contrato.created_at.toISOString(),
      conteudo_sha256: contrato.conteudo_sha256,
      codigo_verificacao: code,
      arquivo_conteudo: DOCUMENT_FILE,
    },
    partes,
    eventos: chain,
    pdf_sem_assinaturas_sha256: document.draftSha256,
    ...(document.trailTimestamp
      ? {
          ancora_trilha: {
            seq: document.trailTimestamp.seq,
            hash: document.trailTimestamp.hash,
            token_b64: document.trailTimestamp.tokenDer.toString("base64"),
            gen_time: document.trailTimestamp.genTime.toISOString(),
            tsa: document.trailTimestamp.tsa,
          },
        }
      : {}),
  });
  // The bytes conteudo_sha256 hashes: the canonical JSON of the frozen model (create-document.ts).
  return { evidence, documentJson: canonicalJson(contrato.documento) };
}

/** The two embedded JSON files (canonical, UTF-8). */
export function evidenceAttachments(evidence: Evidence, documentJson: string): PdfAttachment[] {
  return [
    {
      name: DOCUMENT_FILE,
      description: `Conteúdo congelado do documento (JSON canônico RFC 8785); SHA-256 ${evidence.documento.conteudo_sha256}`,
      mimeType: "application/json",
      relationship: "Source",
      content: documentJson,
    },
    {
      name: EVIDENCE_FILE,
      description: `Evidências da assinatura: partes e cadeia de eventos (hash final ${evidence.cadeia.hash_final})`,
      mimeType: "application/json",
      relationship: "Supplement",
      content: canonicalJson(evidence),
    },
  ];
}

const via = (data: unknown) => {
  const value = (data as { via?: string } | null)?.via;
  if (value === "qr") return "link exibido em QR code para o signatário ler com o próprio celular";
  return value === "copiar"
    ? "link copiado"
    : value === "whatsapp"
      ? "link aberto para envio por WhatsApp"
      : "link exibido na tela";
};

/** Staff handling the signing link: shown, copied, or the device handed over at the front desk. */
const STAFF_LINK_ACTIONS = new Set([
  "document.link_accessed",
  "document.front_desk_started",
  "document.front_desk_ended",
]);
function staffLinkNote(event: DocumentChainEntry): string {
  if (event.action === "document.front_desk_started")
    return "aparelho da equipe entregue ao signatário para assinatura presencial, com o sistema bloqueado.";
  if (event.action === "document.front_desk_ended") return "aparelho desbloqueado com a senha do membro da equipe.";
  return `${via(event.data)}.`;
}

const CONTACT_FIELDS: Record<string, string> = {
  email: "e-mail",
  telefone: "telefone",
  cpf: "CPF",
  responsavel_cpf: "CPF do responsável",
  responsavel_email: "e-mail do responsável",
  responsavel_telefone: "celular do responsável",
};

function contactChange(data: unknown): string {
  const changes = Object.entries((data ?? {}) as Record<string, unknown>)
    .filter(([key]) => key in CONTACT_FIELDS)
    .map(([key, value]) => {
      const { antes, depois } = (value ?? {}) as { antes?: string | null; depois?: string | null };
      return `${CONTACT_FIELDS[key]} de ${antes ?? "(vazio)"} para ${depois ?? "(vazio)"}`;
    });
  const said = changes.length > 0 ? `alterou ${changes.join("; ")}.` : "alterou o contato.";
  // Fixed from the document's page: the old link and any pending code stopped working at once.
  return (data as { corrigido_no_documento?: unknown } | null)?.corrigido_no_documento === true
    ? `${said} Corrigido na página do documento: novo link enviado; o link anterior e os códigos pendentes deixaram de valer.`
    : said;
}

/** The registry page drawn from the evidence (the same values the JSON carries). */
/** How the PDF will be signed (final-signers.ts), printed in the registry before signing. */
export interface RegistrySigning {
  /** pt-BR level of the seal, e.g. "PAdES B-B (assinatura básica)" or "ICP-Brasil AD-RB …". */
  sealLevel?: string;
  /** Whose certificate the seal is, and what was checked of it. */
  sealTrust?: CertificateTrust;
  professional?: { commonName: string; fingerprintSha256: string; level: string; trust?: CertificateTrust } | null;
  professionalMissing?: string | null;
  /** Why the clinic's certificate did not seal (decision 048). */
  clinicSealMissing?: string | null;
  /** A time-stamp authority stamps the signatures and the document (false: TSA_URL none or unset, decision 060). */
  timestamped?: boolean;
  /** What the check of the time-stamp authority found (decision 060). */
  timestampAuthority?: TimestampAuthorityCheck | null;
}

export function registryOf(
  evidence: Evidence,
  seal: { commonName: string; fingerprintSha256: string },
  link: { verificationUrl: string; qrPngDataUrl: string },
  signing: RegistrySigning = {},
): SignatureRegistry {
  const chain = evidence.eventos;
  const note = (entry: DocumentChainEntry, text: string): RegistryNote => ({
    at: new Date(entry.created_at),
    actor: entry.actor,
    text,
  });
  return {
    chain: chain.map((e) => ({
      seq: e.seq,
      at: new Date(e.created_at),
      label: e.label,
      actor: e.actor,
      ip: e.ip,
      userAgent: e.user_agent,
      prevHash: e.prev_hash,
      hash: e.hash,
    })),
    finalHash: evidence.cadeia.hash_final,
    parties: evidence.partes.map((p): RegistryParty => ({
      papel: p.papel,
      qualidade: p.qualidade,
      nome: p.nome,
      nomeDigitado: p.nome_digitado,
      cpf: p.cpf,
      email: p.email,
      telefone: p.telefone,
      assinouEm: new Date(p.assinou_em),
      nivel: p.nivel,
      motivoSimples: p.motivo_simples,
      codigoEnviadoPara: p.codigo_enviado_para,
      codigoCanal: p.codigo_canal ?? null,
      codigoContatoDe: p.codigo_contato_de ?? null,
      contatoDesde: p.contato_desde ?? null,
      otpVerificado: p.otp_verificado,
      consentimento: p.consentimento,
      tipoAssinatura: p.tipo_assinatura,
      assinaturaSha256: p.assinatura_sha256,
      dispositivo: p.dispositivo,
      ip: p.ip,
      porta: p.porta_origem,
      userAgent: p.user_agent,
      presencialPor: p.presencial?.atendente_nome ?? null,
      aRogo: p.a_rogo ?? null,
      incorporadoEm: p.incorporado?.origem ?? null,
      leitura: p.leitura ?? null,
      compreensao: p.compreensao ?? null,
      audio: p.audio ?? null,
    })),
    linkViews: chain.filter((e) => STAFF_LINK_ACTIONS.has(e.action)).map((e) => note(e, staffLinkNote(e))),
    contactChanges: chain
      .filter((e) => e.action === "patient.contact_changed")
      .map((e) => note(e, contactChange(e.data))),
    draftSha256: evidence.pdf_sem_assinaturas_sha256,
    trailAnchor: evidence.ancora_trilha
      ? {
          seq: evidence.ancora_trilha.seq,
          genTime: new Date(evidence.ancora_trilha.gen_time),
          tsa: evidence.ancora_trilha.tsa,
        }
      : null,
    verificationCode: evidence.documento.codigo_verificacao,
    verificationUrl: link.verificationUrl,
    qrPngDataUrl: link.qrPngDataUrl,
    sealCommonName: seal.commonName,
    sealFingerprint: seal.fingerprintSha256,
    sealLevel: signing.sealLevel ?? null,
    sealTrust: signing.sealTrust ?? null,
    professionalCertificate: signing.professional ?? null,
    professionalMissing: signing.professionalMissing ?? null,
    clinicSealMissing: signing.clinicSealMissing ?? null,
    timestamped: signing.timestamped ?? null,
    timestampAuthority: signing.timestampAuthority ?? null,
  };
}

/** The PDF input with the registry page and the embedded evidence (QR code as a PNG data URL). */
export async function withRegistry(
  document: FinalDocument,
  origin: string,
  seal: { commonName: string; fingerprintSha256: string },
  signing: RegistrySigning = {},
): Promise<DocumentPdfInput> {
  const code = document.contrato.verification_code;
  if (!code) throw new Error(`documento ${document.contrato.id} assinado sem código de verificação`);
  const verificationUrl = `${origin}${verificationPath(code)}`;
  const qrPngDataUrl = await QRCode.toDataURL(verificationUrl, QR_OPTIONS);
  const { evidence, documentJson } = documentEvidence(document, { professionalCertificate: !!signing.professional });
  return {
    ...document.input,
    registry: registryOf(evidence, seal, { verificationUrl, qrPngDataUrl }, signing),
    attachments: evidenceAttachments(evidence, documentJson),
  };
}
