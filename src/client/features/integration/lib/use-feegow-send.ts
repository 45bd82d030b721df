import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { ApiError, errorMessage } from "@/lib/api";
import { DOCUMENT_MESSAGES } from "@shared/schemas/document";
import { FEEGOW_IMPORT_MESSAGES, FEEGOW_MESSAGES, type FeegowUpload } from "@shared/schemas/feegow";
import { feegowUploadKeys, readDocumentUploads, requestFeegowUpload } from "../api/feegow-uploads-api";

/** How long the screen follows an upload before leaving it to the background (it keeps going there). */
const WATCH_MS = 60_000;
const EVERY_MS = 1000;

/** Reads the upload until Feegow answered (enviado/falhou), a retry is scheduled, or the watch ends. */
async function watch(documentId: string, uploadId: string): Promise<FeegowUpload | undefined> {
  const until = Date.now() + WATCH_MS;
  let last: FeegowUpload | undefined;
  while (Date.now() < until) {
    last = (await readDocumentUploads(documentId)).find((upload) => upload.id === uploadId);
    if (!last || last.status === "enviado" || last.status === "falhou") return last;
    // Waiting for a retry with back-off: say so now rather than keep the person waiting.
    if (last.status === "pendente" && last.ultimo_erro) return last;
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
  return last;
}

/**
 * "Gerar e Enviar PDF" and the preview's Feegow button: queues the upload of the document's
 * current PDF, follows it for a while and says how it went — 'Upload realizado' / 'Erro no
 * upload' (spec §8) — or that it goes on in the background. `successTitle` replaces the success
 * title (document creation: 'Documento criado e PDF enviado ao Feegow com sucesso'). `generated`:
 * the PDF was made for this send (document creation, "Gerar e Enviar PDF") — spec part 1 §8 then
 * says 'Sucesso!', or 'Aviso' when only the upload failed (the PDF stays saved), and a failed
 * generation is 'Erro na Geração do PDF' with the server's message.
 */
export function useFeegowSend() {
  const queryClient = useQueryClient();
  const [pendingId, setPendingId] = useState<string | null>(null);

  async function send(documentId: string, options: { successTitle?: string; generated?: boolean } = {}): Promise<void> {
    setPendingId(documentId);
    try {
      const { upload, enfileirado } = await requestFeegowUpload(documentId);
      void queryClient.invalidateQueries({ queryKey: feegowUploadKeys.all });
      const final = upload.status === "enviado" && !enfileirado ? upload : await watch(documentId, upload.id);
      if (final?.status === "enviado" && options.generated) {
        toast.success(options.successTitle ?? FEEGOW_IMPORT_MESSAGES.generatedAndSentTitle, {
          description: FEEGOW_IMPORT_MESSAGES.generatedAndSent,
        });
      } else if (final?.status === "falhou" && options.generated) {
        toast.warning(FEEGOW_IMPORT_MESSAGES.uploadWarningTitle, {
          description: final.ultimo_erro
            ? `${FEEGOW_IMPORT_MESSAGES.uploadWarning} Motivo: ${final.ultimo_erro}`
            : FEEGOW_IMPORT_MESSAGES.uploadWarning,
        });
      } else if (final?.status === "enviado") {
        toast.success(options.successTitle ?? FEEGOW_MESSAGES.uploadOk, {
          description: enfileirado
            ? "PDF enviado ao prontuário do paciente no Feegow."
            : "Este PDF já estava no prontuário do paciente no Feegow.",
        });
      } else if (final?.status === "falhou") {
        toast.error(FEEGOW_MESSAGES.uploadError, { description: final.ultimo_erro ?? undefined });
      } else {
        toast.info(FEEGOW_IMPORT_MESSAGES.uploadQueued, {
          description: final?.ultimo_erro
            ? `${final.ultimo_erro} Uma nova tentativa será feita automaticamente; o PDF continua salvo no Consentir.`
            : "O envio continua em segundo plano; acompanhe o status na lista de documentos.",
        });
      }
    } catch (error) {
      if (options.generated && isPdfGenerationError(error)) {
        toast.error(DOCUMENT_MESSAGES.pdfGenerationErrorTitle, {
          description: error.message || DOCUMENT_MESSAGES.pdfError,
        });
      } else {
        toast.error(FEEGOW_MESSAGES.uploadError, { description: errorMessage(error) });
      }
    } finally {
      setPendingId(null);
      void queryClient.invalidateQueries({ queryKey: feegowUploadKeys.all });
    }
  }

  return { send, pendingId };
}

/** The server could not make the PDF (or find the contract): spec part 1 §5 PDF generation. */
export function isPdfGenerationError(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    (error.code === "PDF_FAILED" ||
      error.code === "PDF_TEMPLATE_INVALID" ||
      error.code === "DOCUMENT_TOO_LARGE" ||
      error.code === "NOT_FOUND")
  );
}
