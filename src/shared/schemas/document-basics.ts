/**
 * The document constants, labels and small rules the screens need without zod (the dashboard's
 * first load, decision 033); ./document.ts re-exports them next to its schemas.
 */
/** Spec part 1 §4. */
export const DOCUMENT_STATUSES = ["draft", "sent", "viewed", "signed", "cancelled", "expired", "recusado"] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const DOCUMENT_STATUS_LABEL: Readonly<Record<DocumentStatus, string>> = {
  draft: "Rascunho",
  sent: "Enviado",
  viewed: "Visualizado",
  signed: "Assinado",
  cancelled: "Cancelado",
  expired: "Expirado",
  /** The patient's informed refusal, kept with its sealed record (decision 056). */
  recusado: "Recusado",
};

/**
 * A revoked consent stays `signed` (its sealed PDF and retention are untouched, decision 056), but
 * no screen shows it as plain "Assinado": badges, lists and filters say "Revogado".
 */
export const REVOKED_LABEL = "Revogado";

/** The label a reader sees for a document: "Revogado" once revoked, else its status's. */
export function documentStatusLabel(status: string, revogadoAt?: string | null): string {
  if (revogadoAt) return REVOKED_LABEL;
  return DOCUMENT_STATUS_LABEL[status as DocumentStatus] ?? status;
}

/**
 * Dashboard badges (spec part 1 §4): signed, pending (sent or viewed), expired. The spec shows any
 * other status raw ("draft"); a pt-BR screen shows its label instead (Rascunho, Cancelado).
 */
export function dashboardBadge(status: string, revogadoAt?: string | null): string {
  if (revogadoAt) return REVOKED_LABEL;
  if (status === "signed") return "Assinado";
  if (status === "sent" || status === "viewed") return "Pendente";
  if (status === "expired") return "Expirado";
  return DOCUMENT_STATUS_LABEL[status as DocumentStatus] ?? status;
}

/** Validity of a new document (spec part 1 §9). */
export const DOCUMENT_VALIDITY_DAYS = 7;
export const DOCUMENT_PAGE_SIZE = 20;
export const RECENT_DOCUMENTS = 5;
export const MAX_SELECTED_ITEMS = 200;

/** '#' + the last 8 characters of the id (spec part 1 §3). */
export function shortDocumentId(id: string): string {
  return `#${id.slice(-8)}`;
}

/**
 * The status a reader sees: sent or viewed documents whose expiry has passed are expired even
 * before the sweep job writes it (DESIGN §2).
 */
export function effectiveStatus(status: DocumentStatus, expiracaoAt: Date | string, now: Date): DocumentStatus {
  if ((status === "sent" || status === "viewed") && new Date(expiracaoAt).getTime() <= now.getTime()) return "expired";
  return status;
}

/** Signature rate (spec part 1 §9): signed / total × 100, one decimal, 0 without documents. */
export function signatureRate(signed: number, total: number): string {
  const rate = total === 0 ? 0 : (signed / total) * 100;
  return rate.toFixed(1);
}

export const DOCUMENT_MESSAGES = {
  requiredFields: "Por favor, preencha todos os campos obrigatórios.",
  physicianRequired: "Por favor, selecione o médico responsável pelo documento.",
  physicianInvalid: "O médico responsável escolhido não pode assinar documentos desta clínica.",
  created: "Documento criado e PDF enviado com sucesso",
  createdLocal: "Documento criado e PDF gerado com sucesso",
  createError: "Erro ao criar documento",
  unresolved: "Há variáveis sem valor no documento. Preencha os dados ou ajuste o template antes de criar.",
  templateNotPublished: "Este template não está publicado. Publique-o antes de criar documentos.",
  notFound: "Documento não encontrado",
  contractNotFound: "Contrato não encontrado",
  searchPlaceholder: "Buscar por paciente, procedimento ou ID...",
  empty: "Nenhum documento encontrado",
  emptyHint: "Crie o primeiro documento para começar a coletar assinaturas.",
  emptySearch: (term: string) => `Nenhum documento encontrado para "${term}"`,
  /** A filtered list counts up to 1.000 (capped: "mais de 1.000"); numbers in pt-BR. */
  showing: (shown: number, total: number, capped = false) =>
    `Mostrando ${shown.toLocaleString("pt-BR")} de ${capped ? "mais de " : ""}${total.toLocaleString("pt-BR")} documentos`,
  noPatient: "Paciente não informado",
  noProfessional: "Profissional não informado",
  expiredWarningTitle: "Atenção: Documentos Expirados",
  pdfDownloaded: "PDF Baixado",
  pdfDownloadedText: (name: string) => `Arquivo ${name} foi baixado com sucesso.`,
  downloadError: "Erro no Download",
  downloadErrorText: "Não foi possível fazer o download do PDF.",
  pdfUnavailable: "PDF não disponível",
  pdfUnavailableText: "Gere o PDF primeiro para fazer download",
  pdfError: "Erro ao gerar PDF",
  /** Spec part 1 §8: the toast titles of a failed generation ('Erro na Geração do PDF', server message
   * or 'Erro ao gerar PDF') and of a PDF problem told with its message ('Erro no PDF'). */
  pdfGenerationErrorTitle: "Erro na Geração do PDF",
  pdfErrorTitle: "Erro no PDF",
  templateProcessingError: "Erro ao processar template do documento",
  noTemplateContent: "Nenhum conteúdo de template encontrado.",
  contentError: "Erro ao gerar conteúdo do documento.",
  readyToSign: "Pronto para assinatura",
  deleted: "Documento excluído",
  deleteError: "Erro ao excluir documento",
  cancelled: "Documento cancelado",
  cancelError: "Erro ao cancelar documento",
  cancelReasonRequired: "Informe o motivo do cancelamento",
  signedLocked: "Documentos assinados não podem ser excluídos nem alterados.",
  onlyDraftDeletable: "Só rascunhos podem ser excluídos; documentos enviados podem ser cancelados.",
  notCancellable: "Este documento não pode ser cancelado.",
  noTenant: "Erro ao carregar dados do usuário.",
} as const;
