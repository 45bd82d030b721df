import { useState } from "react";
import { toast } from "sonner";
import { DOCUMENT_MESSAGES } from "@shared/schemas/document";
import { isPdfGenerationError } from "@/features/integration";
import { downloadDocumentPdf } from "../api/documents-api";

/**
 * Downloads a document's PDF with the spec's toasts (part 1 §8): 'PDF Baixado'; 'Erro na Geração do
 * PDF' with the server's message when it could not be made; else 'Erro no Download'.
 */
export function usePdfDownload() {
  const [pendingId, setPendingId] = useState<string | null>(null);
  async function download(id: string) {
    setPendingId(id);
    try {
      const name = await downloadDocumentPdf(id);
      toast.success(DOCUMENT_MESSAGES.pdfDownloaded, { description: DOCUMENT_MESSAGES.pdfDownloadedText(name) });
    } catch (error) {
      if (isPdfGenerationError(error)) {
        toast.error(DOCUMENT_MESSAGES.pdfGenerationErrorTitle, {
          description: error.message || DOCUMENT_MESSAGES.pdfError,
        });
        return;
      }
      toast.error(DOCUMENT_MESSAGES.downloadError, { description: DOCUMENT_MESSAGES.downloadErrorText });
    } finally {
      setPendingId(null);
    }
  }
  return { download, pendingId };
}
