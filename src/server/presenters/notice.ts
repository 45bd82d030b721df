import type { NoticeDetails, NoticeRow } from "../services/notices/load-notice-details.js";
import type { Notice } from "../../shared/notices/notice-schemas.js";
import { type NoticeFacts, noticeLink, noticeText } from "../../shared/notices/notice-text.js";

/** The facts of one notice, or null when its row went away between the two reads. */
function factsOf(
  row: NoticeRow,
  details: NoticeDetails,
): {
  facts: NoticeFacts;
  documentId: string | null;
  uploadId: string | null;
  motivo?: string | null;
  link?: string | null;
} | null {
  switch (row.kind) {
    case "document.viewed":
    case "document.expiring":
    case "document.signed": {
      const doc = details.documents.get(row.id);
      if (!doc) return null;
      const base = { titulo: doc.titulo, paciente: doc.paciente };
      const facts: NoticeFacts =
        row.kind === "document.viewed"
          ? { kind: row.kind, ...base, viewedAt: doc.viewed_at ?? new Date(row.at) }
          : row.kind === "document.expiring"
            ? { kind: row.kind, ...base, expiresAt: doc.expiracao_at, viewed: doc.status === "viewed" }
            : { kind: row.kind, ...base, signedAt: doc.signed_at ?? new Date(row.at) };
      return { facts, documentId: row.id, uploadId: null };
    }
    case "document.refused":
    case "document.revoked": {
      const doc = details.documents.get(row.id);
      if (!doc) return null;
      const at = (row.kind === "document.refused" ? doc.recusado_at : doc.revogado_at) ?? new Date(row.at);
      return {
        facts: { kind: row.kind, titulo: doc.titulo, paciente: doc.paciente, at, motivo: doc.motivo },
        documentId: row.id,
        uploadId: null,
      };
    }
    case "document.paused": {
      const doc = details.documents.get(row.id);
      if (!doc) return null;
      return {
        facts: {
          kind: row.kind,
          titulo: doc.titulo,
          paciente: doc.paciente,
          at: doc.compreensao_pausada_at ?? new Date(row.at),
        },
        documentId: row.id,
        uploadId: null,
      };
    }
    case "professional.awaiting": {
      const quantidade = details.awaiting.get(row.id);
      if (!quantidade) return null;
      return { facts: { kind: row.kind, quantidade }, documentId: null, uploadId: null };
    }
    case "email.failed": {
      const email = details.emails.get(row.id);
      if (!email) return null;
      const last = email.attempts[email.attempts.length - 1];
      return {
        facts: {
          kind: row.kind,
          assunto: email.subject,
          para: email.to_address,
          tentativas: email.attempts.length,
          erro: last?.error ?? null,
        },
        documentId: null,
        uploadId: null,
      };
    }
    case "feegow.failed": {
      const upload = details.uploads.get(row.id);
      if (!upload) return null;
      return {
        facts: {
          kind: row.kind,
          titulo: upload.titulo ?? "Documento",
          paciente: upload.paciente,
          erro: upload.ultimo_erro,
        },
        documentId: upload.contrato_id,
        uploadId: row.id,
        motivo: upload.motivo,
      };
    }
    case "certificate.expiring":
    case "certificate.expired": {
      const certificate = details.certificates.get(row.id);
      if (!certificate) return null;
      return {
        facts: { kind: row.kind, alias: certificate.alias, titular: certificate.cn, expiresAt: certificate.vence_em },
        documentId: null,
        uploadId: null,
      };
    }
    case "system": {
      const notice = details.system.get(row.id);
      if (!notice) return null;
      return {
        facts: { kind: row.kind, title: notice.title, body: notice.body },
        documentId: null,
        uploadId: null,
        link: notice.link,
      };
    }
  }
}

/** One notice as GET /api/notices answers it (pt-BR words, the link, the read flag). */
export function presentNotice(row: NoticeRow, details: NoticeDetails, now: Date): Notice | null {
  const found = factsOf(row, details);
  if (!found) return null;
  const { titulo, mensagem } = noticeText(found.facts, now);
  return {
    chave: row.key,
    tipo: row.kind,
    titulo,
    mensagem,
    link: noticeLink(row.kind, {
      documentId: found.documentId,
      motivo: found.motivo ?? null,
      link: found.link ?? null,
    }),
    lido: row.lido,
    em: row.at,
    documento_id: found.documentId,
    envio_feegow_id: found.uploadId,
  };
}
