import { createHash } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratoPartes, contratoRegistros, contratos, files, tenants } from "../../../db/schema.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { audioSealContext } from "../signing/record-audio.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { fileTimestamp, safeFileStem } from "../../../pdf/file-name.js";
import { DOCUMENT_STATUS_LABEL, type DocumentStatus } from "../../../shared/schemas/document.js";
import type { Actor } from "../../policies/roles.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findPatientOrThrow } from "../patients/find-patient.js";
import { type AccessLogEntry, loadPatientAccessLog, saoPauloDateTime } from "./patient-access-log.js";
import { patientReadme } from "./readme-texts.js";
import { toCsv } from "./csv.js";
import { answerLabel } from "../../../shared/document-model/optional-consents.js";
import { loadOptionalAnswers } from "../signing/optional-answers.js";
import type { ZipWriter } from "./zip-writer.js";
import { CHOICE_MEANS_LABEL, CHOICE_RECORD_TITLE, type ChoiceKind } from "../../../shared/schemas/choices.js";
import { frozenOptionalItem } from "../choices/optional-item.js";

type PatientRow = Awaited<ReturnType<typeof findPatientOrThrow>>;

interface ExportedDocument {
  id: string;
  titulo: string;
  status: DocumentStatus;
  procedimento: string | null;
  data_procedimento: string | null;
  created_at: Date;
  sent_at: Date | null;
  signed_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  verification_code: string | null;
  conteudo_sha256: string;
  documento: Record<string, unknown>;
  signed_pdf: { sha256: string; nome: string } | null;
  /** The patient's Sim/Não to each optional consent (decision 057). */
  consentimentos_opcionais: { id: string; titulo: string; resposta: string; respondido_em: string }[];
  revogado_em: Date | null;
  /** Refusal and revocation records (decisions 056, 057), each with its own sealed PDF when made. */
  registros: ExportedRecord[];
  /** The agreements recorded in the signer's voice (decision 069), kept encrypted; opened on export. */
  audios: { nome: string; papel: string; stored_sha256: string; mime: string }[];
}

interface ExportedRecord {
  tipo: ChoiceKind;
  /** The optional consent one revocation names (its title as signed), null: the whole consent. */
  autorizacao: string | null;
  origem: string;
  meio: string;
  nome: string | null;
  motivo: string | null;
  registrado_por: string | null;
  ocorrido_em: Date;
  codigo_verificacao: string;
  pdf: { sha256: string; nome: string } | null;
}

/** Everything a patient's export holds, read (and audited) before the first byte is sent. */
export interface PatientExport {
  fileName: string;
  clinic: string;
  at: Date;
  patient: PatientRow;
  documents: ExportedDocument[];
  accessLog: AccessLogEntry[];
}

export interface PreparePatientExportOptions {
  db: Db;
  actor: Actor;
  patientId: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * GET /api/patients/:id/export (LGPD art. 18 II access and V portability): the patient of the
 * session's clinic (another clinic's id is 404), their documents and their access log, read in
 * one transaction that also records `patient.exported` — so the log inside the ZIP ends with
 * this very export. Only this patient's rows are read; the PDFs are streamed afterwards.
 */
export async function preparePatientExport({
  db,
  actor,
  patientId,
  audit,
  now = new Date(),
}: PreparePatientExportOptions): Promise<PatientExport> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const patient = await findPatientOrThrow(tx, actor.tenantId, patientId);
    const [clinic] = await tx
      .select({ nome: tenants.nome })
      .from(tenants)
      .where(eq(tenants.id, actor.tenantId))
      .limit(1);
    const rows = await tx
      .select()
      .from(contratos)
      .where(and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.paciente_id, patient.id)))
      .orderBy(asc(contratos.created_at), asc(contratos.id));
    const signedPdfIds = rows.map((r) => r.signed_pdf_file_id).filter((id): id is string => id !== null);
    const sealed = signedPdfIds.length
      ? await tx
          .select({ id: files.id, sha256: files.sha256, nome: files.nome })
          .from(files)
          .where(and(eq(files.tenant_id, actor.tenantId), inArray(files.id, signedPdfIds)))
      : [];
    const records = rows.length
      ? await tx
          .select()
          .from(contratoRegistros)
          .where(
            and(
              eq(contratoRegistros.tenant_id, actor.tenantId),
              inArray(
                contratoRegistros.contrato_id,
                rows.map((r) => r.id),
              ),
            ),
          )
          .orderBy(asc(contratoRegistros.created_at), asc(contratoRegistros.id))
      : [];
    const recordPdfIds = records.map((r) => r.pdf_file_id).filter((id): id is string => id !== null);
    const recordPdfs = recordPdfIds.length
      ? await tx
          .select({ id: files.id, sha256: files.sha256, nome: files.nome })
          .from(files)
          .where(and(eq(files.tenant_id, actor.tenantId), inArray(files.id, recordPdfIds)))
      : [];
    const sealedById = new Map([...sealed, ...recordPdfs].map((f) => [f.id, f]));
    const audios = rows.length
      ? await tx
          .select({
            contratoId: contratoPartes.contrato_id,
            nome: contratoPartes.nome,
            papel: contratoPartes.papel,
            stored_sha256: files.sha256,
            mime: files.content_type,
          })
          .from(contratoPartes)
          .innerJoin(
            files,
            and(eq(files.tenant_id, contratoPartes.tenant_id), eq(files.id, contratoPartes.audio_file_id)),
          )
          .where(
            and(
              eq(contratoPartes.tenant_id, actor.tenantId),
              inArray(
                contratoPartes.contrato_id,
                rows.map((r) => r.id),
              ),
            ),
          )
      : [];
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "patient.exported",
        entityType: "paciente",
        entityId: patient.id,
        data: { documentos: rows.length, pdfs_assinados: sealed.length, registros: records.length },
      },
    );
    const accessLog = await loadPatientAccessLog(tx, actor.tenantId, patient.id, rows);
    const answers = new Map<string, ExportedDocument["consentimentos_opcionais"]>();
    for (const r of rows) {
      const recorded = await loadOptionalAnswers(tx, actor.tenantId, r.id);
      answers.set(
        r.id,
        recorded.map((a) => ({
          id: a.id,
          titulo: a.titulo,
          resposta: answerLabel(a.aceito),
          respondido_em: a.respondido_em.toISOString(),
        })),
      );
    }
    const documents = rows.map((r) => ({
      id: r.id,
      titulo: r.titulo,
      status: r.status,
      procedimento: r.procedimento,
      data_procedimento: r.data_procedimento,
      created_at: r.created_at,
      sent_at: r.sent_at,
      signed_at: r.signed_at,
      cancelled_at: r.cancelled_at,
      cancel_reason: r.cancel_reason,
      verification_code: r.verification_code,
      conteudo_sha256: r.conteudo_sha256,
      documento: r.documento,
      signed_pdf: r.signed_pdf_file_id ? (sealedById.get(r.signed_pdf_file_id) ?? null) : null,
      consentimentos_opcionais: answers.get(r.id) ?? [],
      revogado_em: r.revogado_at,
      audios: audios.filter((a) => a.contratoId === r.id).map(({ contratoId: _id, ...audio }) => audio),
      registros: records
        .filter((record) => record.contrato_id === r.id)
        .map((record) => ({
          tipo: record.tipo,
          autorizacao: record.item_id
            ? (frozenOptionalItem(r.documento, record.item_id)?.title ?? record.item_id)
            : null,
          origem: record.origem,
          meio: CHOICE_MEANS_LABEL[record.meio] ?? record.meio,
          nome: record.nome,
          motivo: record.motivo,
          registrado_por: record.registrado_por_nome,
          ocorrido_em: record.ocorrido_em,
          codigo_verificacao: record.verification_code,
          pdf: record.pdf_file_id ? (sealedById.get(record.pdf_file_id) ?? null) : null,
        })),
    }));
    return {
      fileName: `dados-do-paciente_${safeFileStem(patient.nome)}_${fileTimestamp(now)}.zip`,
      clinic: clinic?.nome ?? "",
      at: now,
      patient,
      documents,
      accessLog,
    };
  });
}

/** The file name's extension for a recording's sniffed type (decision 069). */
const AUDIO_EXTENSION: Readonly<Record<string, string>> = {
  "audio/webm": "webm",
  "audio/ogg": "ogg",
  "audio/mp4": "m4a",
  "audio/wav": "wav",
};

const iso = (value: Date | null) => (value ? value.toISOString() : null);

function patientRecord(patient: PatientRow): Record<string, unknown> {
  const { busca: _search, tenant_id: _tenant, created_by: _by, ...rest } = patient;
  return { ...rest, created_at: iso(rest.created_at), updated_at: iso(rest.updated_at) };
}

/** The entry names inside the ZIP: numbered in creation order, the title readable, the id unique. */
function documentStem(index: number, document: ExportedDocument): string {
  return `documentos/${String(index + 1).padStart(3, "0")}_${safeFileStem(document.titulo).slice(0, 60)}_${document.id.slice(-8)}`;
}

const ACCESS_LOG_COLUMNS = ["data_hora", "quem", "papel", "acao", "documento", "instante_utc", "seq"] as const;
const ACCESS_LOG_HEADERS = [
  "Data e hora (São Paulo)",
  "Quem",
  "Papel",
  "Ação",
  "Documento",
  "Instante (UTC)",
  "Nº na trilha",
];

/**
 * Writes the ZIP: LEIA-ME.txt, paciente.json, each document (its sealed PDF when there is one,
 * otherwise the frozen model it was — or would be — signed on, as JSON) with its sealed refusal and
 * revocation records (decision 056), documentos.json (the
 * index), the access log as CSV and JSON, and manifesto.json (SHA-256 of every entry).
 */
export async function writePatientExport(
  zip: ZipWriter,
  data: PatientExport,
  storage: FileStorage,
  secretBox: SecretBox,
): Promise<void> {
  await zip.add(
    "LEIA-ME.txt",
    patientReadme({
      clinic: data.clinic,
      patient: data.patient.nome,
      at: saoPauloDateTime(data.at),
      documents: data.documents.length,
    }),
  );
  await zip.add("paciente.json", `${JSON.stringify(patientRecord(data.patient), null, 2)}\n`);
  const index: Record<string, unknown>[] = [];
  for (const [i, document] of data.documents.entries()) {
    const stem = documentStem(i, document);
    let arquivo: string;
    let observacao: string | null = null;
    const bytes = document.signed_pdf ? await storage.get(document.signed_pdf.sha256) : null;
    if (bytes) {
      arquivo = `${stem}_assinado.pdf`;
      await zip.add(arquivo, bytes, { compress: false });
    } else {
      arquivo = `${stem}_modelo.json`;
      const model = {
        id: document.id,
        titulo: document.titulo,
        status: document.status,
        conteudo_sha256: document.conteudo_sha256,
        documento: document.documento,
      };
      await zip.add(arquivo, `${JSON.stringify(model, null, 2)}\n`);
      if (document.signed_pdf)
        observacao =
          "O PDF assinado não foi encontrado no armazenamento; segue o conteúdo assinado (modelo congelado).";
      else if (document.status === "signed")
        observacao = "O PDF assinado ainda está sendo gerado; segue o conteúdo assinado (modelo congelado).";
    }
    const registros: Record<string, unknown>[] = [];
    for (const record of document.registros) {
      const recordBytes = record.pdf ? await storage.get(record.pdf.sha256) : null;
      const kind = record.tipo === "recusa" ? "registro-de-recusa" : "registro-de-revogacao";
      const recordFile = recordBytes ? `${stem}_${kind}_${record.codigo_verificacao}.pdf` : null;
      if (recordFile && recordBytes) await zip.add(recordFile, recordBytes, { compress: false });
      registros.push({
        tipo: CHOICE_RECORD_TITLE[record.tipo],
        autorizacao: record.autorizacao,
        ocorrido_em: iso(record.ocorrido_em),
        por: record.origem === "equipe" ? record.registrado_por : record.nome,
        origem: record.origem,
        meio: record.meio,
        motivo: record.motivo,
        codigo_verificacao: record.codigo_verificacao,
        arquivo: recordFile,
        observacao: recordFile
          ? null
          : record.pdf
            ? "O PDF do registro não foi encontrado no armazenamento."
            : "O PDF selado do registro ainda está sendo gerado.",
      });
    }
    const audiosDoAceite: Record<string, unknown>[] = [];
    for (const [n, audio] of document.audios.entries()) {
      const sealedAudio = await storage.get(audio.stored_sha256);
      const bytes = sealedAudio
        ? secretBox.open(sealedAudio, audioSealContext(data.patient.tenant_id, document.id))
        : null;
      const audioFile = bytes ? `${stem}_audio-do-aceite_${n + 1}.${AUDIO_EXTENSION[audio.mime] ?? "audio"}` : null;
      if (audioFile && bytes) await zip.add(audioFile, bytes, { compress: false });
      audiosDoAceite.push({
        quem: audio.nome,
        papel: audio.papel,
        arquivo: audioFile,
        sha256: bytes ? createHash("sha256").update(bytes).digest("hex") : null,
        observacao: audioFile ? null : "O áudio não foi encontrado no armazenamento.",
      });
    }
    index.push({
      id: document.id,
      titulo: document.titulo,
      status: DOCUMENT_STATUS_LABEL[document.status] ?? document.status,
      procedimento: document.procedimento,
      data_procedimento: document.data_procedimento,
      criado_em: iso(document.created_at),
      enviado_em: iso(document.sent_at),
      assinado_em: iso(document.signed_at),
      cancelado_em: iso(document.cancelled_at),
      motivo_cancelamento: document.cancel_reason,
      codigo_verificacao: document.verification_code,
      conteudo_sha256: document.conteudo_sha256,
      arquivo,
      observacao,
      consentimentos_opcionais: document.consentimentos_opcionais,
      revogado_em: iso(document.revogado_em),
      registros,
      audios_do_aceite: audiosDoAceite,
    });
  }
  await zip.add("documentos.json", `${JSON.stringify(index, null, 2)}\n`);
  await zip.add(
    "registro-de-acessos.csv",
    toCsv(
      ACCESS_LOG_HEADERS,
      data.accessLog.map((entry) => ACCESS_LOG_COLUMNS.map((column) => entry[column])),
    ),
  );
  await zip.add("registro-de-acessos.json", `${JSON.stringify(data.accessLog, null, 2)}\n`);
  const manifest = {
    gerado_em: data.at.toISOString(),
    clinica: data.clinic,
    paciente_id: data.patient.id,
    entradas: zip.entries,
  };
  await zip.add("manifesto.json", `${JSON.stringify(manifest, null, 2)}\n`);
  zip.finish();
}
