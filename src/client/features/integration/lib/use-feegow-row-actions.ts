import { toast } from "sonner";
import { errorMessage } from "@/lib/api";
import { FEEGOW_IMPORT_MESSAGES, FEEGOW_MESSAGES, type FeegowUpload } from "@shared/schemas/feegow";
import { useFeegowFeatures } from "../api/feegow-api";
import { useLatestFeegowUploads, useRetryFeegowUpload } from "../api/feegow-uploads-api";
import { useFeegowSend } from "./use-feegow-send";

/**
 * What the documents list needs from Feegow (decision 016): each listed document's latest upload,
 * "Gerar e Enviar PDF" and "Tentar de novo" — only when the clinic's upload switch is on, and the
 * actions only for those who write documents.
 */
export function useFeegowRowActions(documentIds: readonly string[], canWrite: boolean) {
  const on = useFeegowFeatures().data?.file_upload === true;
  const feegow = useFeegowSend();
  const uploads = useLatestFeegowUploads(documentIds, on);
  const retry = useRetryFeegowUpload();
  const act = canWrite && on;
  return {
    feegowUploads: uploads.data,
    onFeegowUpload: act ? (id: string) => void feegow.send(id, { generated: true }) : undefined,
    onFeegowRetry: act
      ? (upload: FeegowUpload) =>
          void retry.mutateAsync(upload.id).then(
            () =>
              toast.success(FEEGOW_IMPORT_MESSAGES.uploadQueued, {
                description: "O PDF entrou de novo na fila de envio ao Feegow.",
              }),
            (error: unknown) => toast.error(FEEGOW_MESSAGES.uploadError, { description: errorMessage(error) }),
          )
      : undefined,
  };
}
