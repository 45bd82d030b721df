/**
 * The 'document.choice_record' job (decision 056): the sealed "Registro de recusa" or "Registro de
 * revogação" of a document — made by the same machinery as the signed PDF (final-pdf-input.ts,
 * the PDF pool, the clinic's or the instance's seal, long-term validation): a first page saying
 * what was refused or revoked, by whom, how, when and why, and which checks the server made;
 * for a refusal, the text that was refused; for a revocation, the SHA-256 and code of the sealed
 * original it revokes (never touched itself); then the "Registro de assinaturas" page with the
 * document's whole event chain, and `documento.json` / `evidencias.json` embedded (the evidence
 * carries a `registro` with the record). Stored, linked to its row once, e-mailed to the patient
 * and the responsible professional, and sent to Feegow when the clinic has it on — in one
 * transaction. Idempotent: a record already sealed is left alone.
 */
import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratoRegistros, files } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { DocumentModel, DocumentSection, Inline } from "../../../shared/document-model/build-document-model.js";
import { canonicalJson, DOCUMENT_FILE, EVIDENCE_FILE } from "../../../shared/evidence/evidence.js";
import { formatDateTimeAt } from "../../../shared/format/index.js";
import { CHOICE_MEANS_LABEL, CHOICE_RECORD_TITLE } from "../../../shared/schemas/choices.js";
import { maskCpf } from "../../../shared/signing-rules.js";
import { pdfFileName } from "../../../pdf/file-name.js";
import type { JobContext } from "../../jobs/job-context.js";
import { sha256Hex } from "../../lib/content-hash.js";
import { inlinePdfRenderer } from "../../pdf-pool/inline-renderer.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { enqueueEmail } from "../email/enqueue-email.js";
import { frozenOptionalItem } from "./optional-item.js";
import { loadSignerRecord } from "../signing/signer-record.js";
import { signerContacts } from "../../../shared/signing-rules.js";
import { dateInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import { queueFeegowUpload } from "../feegow/feegow-uploads-store.js";
import { enqueueChoiceRecordMessage } from "./choice-record-message.js";
import { loadFeegowRow } from "../feegow/feegow-store.js";
import {
  documentEvidence,
  evidenceAttachments,
  type FinalDocument,
  loadFinalDocument,
  QR_OPTIONS,
  registryOf,
  verificationPath,
} from "../finalize/final-pdf-input.js";
import { finalSigners, pdfSignatures } from "../finalize/final-signers.js";
import { addLongTermValidation } from "../sealing/long-term-validation.js";
import QRCode from "qrcode";

type Registro = typeof contratoRegistros.$inferSelect;

const line = (text: string): Inline[] => [{ kind: "text", text }];
const labeled = (label: string, value: string): Inline[] => [
  { kind: "text", text: `${label}: `, bold: true },
  { kind: "text", text: value },
];

/** What the record evidences, as it is embedded in evidencias.json (`registro`). */
export function choiceEvidence(registro: Registro, document: FinalDocument) {
  return {
    id: registro.id,
    tipo: registro.tipo,
    origem: registro.origem,
    meio: registro.meio,
    nome: registro.nome,
    cpf: registro.cpf,
    motivo: registro.motivo,
    otp_verificado: registro.otp_verificado,
    registrado_por: registro.registrado_por_nome,
    ocorrido_em: registro.ocorrido_em.toISOString(),
    registrado_em: registro.created_at.toISOString(),
    codigo_verificacao: registro.verification_code,
    documento_id: document.contrato.id,
    conteudo_sha256: document.contrato.conteudo_sha256,
    original_pdf_sha256: registro.original_pdf_sha256,
    original_codigo_verificacao: registro.original_verification_code,
    incorporado_em: registro.incorporado_origem,
    original_assinado_em: document.contrato.signed_at?.toISOString() ?? null,
    // One optional consent revoked (decision 057): its id, and its title and text as signed.
    ...(registro.item_id ? { item: itemEvidence(registro.item_id, document) } : {}),
  };
}

function itemEvidence(itemId: string, document: FinalDocument) {
  const item = frozenOptionalItem(document.contrato.documento, itemId);
  return {
    id: itemId,
    titulo: item?.title ?? null,
    texto: item ? item.paragraphs.map((p) => p.map(inlineText).join("")).join("\n") : null,
  };
}

const inlineText = (inline: Inline): string => ("text" in inline && typeof inline.text === "string" ? inline.text : "");

/** The record's own pages (before the registry): what happened, and for a refusal the text refused. */
export function choiceRecordModel(registro: Registro, document: FinalDocument, clinicName: string): DocumentModel {
  const refusal = registro.tipo === "recusa";
  const { contrato } = document;
  const item = registro.item_id ? frozenOptionalItem(contrato.documento, registro.item_id) : null;
  const itemTitle = item?.title ?? registro.item_id ?? "";
  const when = formatDateTimeAt(registro.ocorrido_em);
  const who =
    registro.origem === "paciente"
      ? `${registro.nome}, pelo próprio link de assinatura`
      : `${registro.nome}, ${CHOICE_MEANS_LABEL[registro.meio]}; registrado por ${registro.registrado_por_nome ?? "membro da equipe"} em ${formatDateTimeAt(registro.created_at)}`;
  const checks =
    registro.origem === "paciente"
      ? [
          "O servidor conferiu o nome digitado com o cadastrado e os dígitos do CPF " +
            `(${registro.cpf ? maskCpf(registro.cpf) : "—"})` +
            (registro.otp_verificado
              ? ", e o código de uso único enviado ao contato cadastrado do paciente."
              : "; nenhum código de uso único foi exigido pela clínica."),
        ]
      : [
          "Registrado pela equipe da clínica a partir do que o paciente comunicou; o servidor registra quem o registrou e quando, não confere a identidade do paciente.",
        ];
  const facts: DocumentSection = {
    id: "registro",
    type: "paragraph",
    title: refusal
      ? "Recusa informada"
      : registro.item_id
        ? "Revogação de uma autorização opcional"
        : "Revogação do consentimento",
    paragraphs: [
      labeled("Documento", `${contrato.titulo} (${contrato.id})`),
      labeled("Clínica", clinicName),
      ...(registro.item_id ? [labeled("Autorização revogada", `${itemTitle} (somente esta autorização)`)] : []),
      labeled(refusal ? "Recusado por" : "Revogado por", who),
      labeled(refusal ? "Recusado em" : "Revogado em", `${when} (horário de Brasília)`),
      labeled("Motivo informado", registro.motivo ?? "não informado"),
      labeled("Conferências", checks.join(" ")),
      ...(registro.incorporado_origem
        ? [
            labeled(
              "Página",
              `incorporada em ${registro.incorporado_origem} — informado pela página; o endereço consta dos sites que a clínica autorizou a incorporar a assinatura.`,
            ),
          ]
        : []),
      labeled("SHA-256 do conteúdo apresentado", contrato.conteudo_sha256),
      ...(refusal
        ? []
        : [
            labeled(
              "Documento assinado revogado",
              `assinado em ${contrato.signed_at ? formatDateTimeAt(contrato.signed_at) : "—"}; código de verificação ${registro.original_verification_code ?? "—"}`,
            ),
            labeled("SHA-256 do PDF assinado (não alterado)", registro.original_pdf_sha256 ?? "—"),
          ]),
      labeled("Código de verificação deste registro", registro.verification_code),
    ],
  };
  const model = contrato.documento as unknown as DocumentModel;
  const refused: DocumentSection[] = refusal
    ? [
        {
          id: "conteudo-apresentado",
          type: "paragraph",
          title: "Conteúdo apresentado e recusado",
          paragraphs: [line(model.title), model.introduction],
        },
        ...model.sections.filter((section) => section.type !== "signature"),
      ]
    : [];
  // The item revoked, its title and text as the patient answered "Sim" to them at signing.
  const revokedItem: DocumentSection[] = registro.item_id
    ? [
        {
          id: "autorizacao-revogada",
          type: "paragraph",
          title: `Autorização revogada: ${itemTitle}`,
          paragraphs: [
            line("Texto da autorização, como assinado (resposta “Sim” na assinatura):"),
            ...(item?.paragraphs ?? []),
          ],
        },
      ]
    : [];
  return {
    title: `${CHOICE_RECORD_TITLE[registro.tipo]} — ${contrato.titulo}`,
    introduction: line(
      refusal
        ? "Este registro documenta a recusa informada do paciente ao documento abaixo (CFM, Recomendação 1/2016). O paciente não assinou o termo."
        : registro.item_id
          ? `Este registro documenta a revogação da autorização opcional “${itemTitle}”, dada no documento assinado abaixo (LGPD, art. 8º, § 5º). Só esta autorização é revogada: o consentimento principal e as demais respostas continuam valendo. O PDF assinado original continua guardado e não foi alterado.`
          : "Este registro documenta a revogação do consentimento dado no documento assinado abaixo (LGPD, art. 8º, § 5º). O PDF assinado original continua guardado e não foi alterado.",
    ),
    sections: [facts, ...revokedItem, ...refused],
    unresolved: [],
  };
}

export async function sealChoiceRecord(
  ctx: JobContext,
  payload: { registroId: string },
  tenantId: string,
): Promise<void> {
  const registro = await withTenant(ctx.db, tenantId, async (tx) => {
    const [row] = await tx
      .select()
      .from(contratoRegistros)
      .where(and(eq(contratoRegistros.tenant_id, tenantId), eq(contratoRegistros.id, payload.registroId)))
      .limit(1);
    return row;
  });
  if (!registro) {
    ctx.log.warn({ tenantId, registroId: payload.registroId }, "registro: não encontrado; nada a fazer");
    return;
  }
  if (registro.pdf_file_id) return;
  const loaded = await loadFinalDocument(ctx, tenantId, registro.contrato_id);
  if (!loaded) return;
  // The record is sealed by the clinic's certificate or the instance seal, never the professional's.
  const document: FinalDocument = {
    ...loaded,
    parties: loaded.parties.filter((p) => p.papel !== "profissional" || p.metodo_assinatura !== "ICP-Brasil"),
  };
  const now = new Date();
  const signers = await finalSigners(ctx, tenantId, document, now);
  const seal = signers.seal;
  const verificationUrl = `${ctx.origin}${verificationPath(registro.verification_code)}`;
  const qrPngDataUrl = await QRCode.toDataURL(verificationUrl, QR_OPTIONS);
  const { evidence: base, documentJson } = documentEvidence(loaded);
  const evidence = {
    ...base,
    documento: { ...base.documento, codigo_verificacao: registro.verification_code },
    registro: choiceEvidence(registro, loaded),
  };
  const attachments = evidenceAttachments(evidence, documentJson).map((a) =>
    a.name === EVIDENCE_FILE
      ? {
          ...a,
          description: `${CHOICE_RECORD_TITLE[registro.tipo]}: o registro, as partes e a cadeia de eventos (hash final ${evidence.cadeia.hash_final})`,
          content: canonicalJson(evidence),
        }
      : a,
  );
  const clinicName = loaded.clinicName;
  const input = {
    ...loaded.input,
    model: choiceRecordModel(registro, loaded, clinicName),
    signatures: [],
    registry: registryOf(
      evidence,
      seal.material,
      { verificationUrl, qrPngDataUrl },
      {
        sealLevel: seal.level.description,
        sealTrust: seal.trust,
        professional: null,
        clinicSealMissing: signers.clinicSealMissing,
      },
    ),
    attachments,
  };
  if (sha256Hex(attachments.find((a) => a.name === DOCUMENT_FILE)?.content ?? "") !== loaded.contrato.conteudo_sha256)
    ctx.log.error({ tenantId, registroId: registro.id }, "registro: o JSON do conteúdo não tem o SHA-256 registrado");
  const signed = await (ctx.pdf ?? inlinePdfRenderer).renderAndSign(
    input,
    pdfSignatures({ ...signers, professional: null }, ctx, now),
    { background: true },
  );
  const sealed = await addLongTermValidation(signed, {
    material: {
      certificates: [seal.material.certificateDer, ...(seal.material.chainDer ?? [])].map((der) => Buffer.from(der)),
      crls: signers.crls,
      ocsps: signers.ocsps,
    },
    // The same authorities as the signatures' stamps: only checked ACTs when they declare AD-RT/AD-RC.
    timestamp: signers.tsa,
  });
  const stored = await ctx.storage.put(sealed);
  const nome = pdfFileName(`${CHOICE_RECORD_TITLE[registro.tipo]} ${loaded.contrato.titulo}`, now);

  await withTenant(ctx.db, tenantId, async (tx) => {
    const [locked] = await tx
      .select({ pdf_file_id: contratoRegistros.pdf_file_id })
      .from(contratoRegistros)
      .where(and(eq(contratoRegistros.tenant_id, tenantId), eq(contratoRegistros.id, registro.id)))
      .for("update");
    if (!locked || locked.pdf_file_id) return;
    const [file] = await tx
      .insert(files)
      .values({
        tenant_id: tenantId,
        sha256: stored.sha256,
        size: stored.size,
        content_type: "application/pdf",
        nome,
        created_by: null,
      })
      .returning({ id: files.id });
    if (!file) throw new Error("files insert returned no row");
    await tx
      .update(contratoRegistros)
      .set({ pdf_file_id: file.id, pdf_sha256: stored.sha256 })
      .where(and(eq(contratoRegistros.tenant_id, tenantId), eq(contratoRegistros.id, registro.id)));
    await recordAuditEvent(
      tx,
      { tenantId, actorProfileId: null },
      {
        action: "document.choice_sealed",
        entityType: "contrato",
        entityId: registro.contrato_id,
        data: {
          registro_id: registro.id,
          tipo: registro.tipo,
          file_id: file.id,
          sha256: stored.sha256,
          size: stored.size,
          certificado_sha256: seal.material.fingerprintSha256,
          selo: seal.kind,
          evidencias_sha256: sha256Hex(attachments.find((a) => a.name === EVIDENCE_FILE)?.content ?? ""),
          cadeia_hash_final: evidence.cadeia.hash_final,
        },
      },
    );
    await enqueueRecordEmails(tx, ctx, tenantId, { registro, document: loaded, fileId: file.id, nome });
    const feegow = await loadFeegowRow(tx, tenantId);
    if (feegow?.integrations.file_upload === true && feegow.token_encrypted) {
      const { row, enfileirado } = await queueFeegowUpload(tx, {
        tenantId,
        contratoId: registro.contrato_id,
        fileId: file.id,
        sha256: stored.sha256,
        origem: registro.tipo,
        requestedBy: null,
        requeueFailed: false,
      });
      if (enfileirado)
        await recordAuditEvent(
          tx,
          { tenantId, actorProfileId: null },
          {
            action: "document.feegow_upload_requested",
            entityType: "contrato",
            entityId: registro.contrato_id,
            data: { upload_id: row.id, sha256: stored.sha256, origem: registro.tipo },
          },
        );
    }
  });
}

/** The sealed record to the patient's address on record and to the responsible professional. */
async function enqueueRecordEmails(
  tx: Tx,
  ctx: JobContext,
  tenantId: string,
  input: { registro: Registro; document: FinalDocument; fileId: string; nome: string },
): Promise<void> {
  const { registro, document } = input;
  const title = CHOICE_RECORD_TITLE[registro.tipo];
  // The guardian's own e-mail when they are the one who signs and the record has their contacts.
  const record = await loadSignerRecord(tx, tenantId, document.contrato.paciente_id);
  const patient = record ? signerContacts(record, dateInSaoPaulo(registro.ocorrido_em)) : undefined;
  const link = `${ctx.origin}${verificationPath(registro.verification_code)}`;
  const attachments = [{ fileId: input.fileId, filename: input.nome, contentType: "application/pdf" }];
  const itemTitle = registro.item_id
    ? (frozenOptionalItem(document.contrato.documento, registro.item_id)?.title ?? registro.item_id)
    : null;
  const what =
    registro.tipo === "recusa"
      ? "a sua recusa ao documento"
      : itemTitle
        ? `a revogação da sua autorização “${itemTitle}” no documento`
        : "a revogação do seu consentimento ao documento";
  const recipients = [
    patient?.email
      ? {
          to: patient.email,
          text:
            `Olá, ${registro.nome.trim().split(/\s+/)[0] ?? registro.nome}!\n\n` +
            `${document.clinicName} registrou ${what} "${document.contrato.titulo}" em ${formatDateTimeAt(registro.ocorrido_em)} (horário de Brasília).\n\n` +
            `Segue em anexo o ${title.toLowerCase()}, selado digitalmente.\nPara conferir a autenticidade, acesse ${link} (código ${registro.verification_code}).\n\n` +
            `Atenciosamente,\n${document.clinicName}\n`,
        }
      : null,
    document.physician?.email
      ? {
          to: document.physician.email.trim().toLowerCase(),
          text:
            `Olá, ${document.physician.nome}!\n\n` +
            `${registro.nome} ${registro.tipo === "recusa" ? "recusou" : itemTitle ? `revogou a autorização “${itemTitle}” de` : "revogou o consentimento de"} "${document.contrato.titulo}" em ${formatDateTimeAt(registro.ocorrido_em)}` +
            `${registro.motivo ? `. Motivo informado: ${registro.motivo}` : ""}.\n\nSegue em anexo o ${title.toLowerCase()} selado (${link}).\n\nConsentir\n`,
        }
      : null,
  ];
  // No e-mail on record for the patient: the record's code and link by message (decision 074).
  await enqueueChoiceRecordMessage(tx, ctx, tenantId, {
    registro,
    pacienteId: document.contrato.paciente_id,
    titulo: document.contrato.titulo,
    clinicName: document.clinicName,
    itemTitle,
  });
  const sent = new Set<string>();
  for (const recipient of recipients) {
    if (!recipient || sent.has(recipient.to.toLowerCase())) continue;
    sent.add(recipient.to.toLowerCase());
    await enqueueEmail(tx, ctx.secretBox, {
      tenantId,
      to: recipient.to,
      subject: `${title}: ${document.contrato.titulo}`,
      text: recipient.text,
      attachments,
    });
  }
}
