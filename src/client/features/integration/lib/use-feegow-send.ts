import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "@/lib/api";
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
 * title (document creation: 'Documento criado e PDF enviado ao Feegow com sucesso').
 */
export function useFeegowSend() {
  const queryClient = useQueryClient();
  const [pendingId, setPendingId] = useState<string | null>(null);

  async function send(documentId: string, options: { successTitle?: string } = {}): Promise<void> {
    setPendingId(documentId);
    try {
      const { upload, enfileirado } = await requestFeegowUpload(documentId);
      void queryClient.invalidateQueries({ queryKey: feegowUploadKeys.all });
      const final = upload.status === "enviado" && !enfileirado ? upload : await watch(documentId, upload.id);
      if (final?.status === "enviado") {
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
      toast.error(FEEGOW_MESSAGES.uploadError, { description: errorMessage(error) });
    } finally {
      setPendingId(null);
      void queryClient.invalidateQueries({ queryKey: feegowUploadKeys.all });
    }
  }

  return { send, pendingId };
}
