import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { DOCUMENT_MESSAGES } from "@shared/schemas/document";
import { downloadSignedPdf } from "../api/signing-api";

/** The primary download of a signed document (the sealed PDF). */
export const SIGNED_PDF_LABEL = "Baixar PDF assinado";
/** The draft's download (watermarked 'RASCUNHO – sem validade'), for every status. */
export const DRAFT_PDF_LABEL = "Baixar rascunho (sem validade)";
export const SIGNED_PDF_PREPARING = "O PDF assinado está sendo preparado. Ele será baixado assim que ficar pronto.";
const RETRY_MS = 3000;
const MAX_TRIES = 40;

/**
 * Baixar PDF assinado: the sealed PDF is made by a job after signing; while the server says it is
 * not there yet (404), say so and try again every few seconds (about two minutes at most). One
 * download at a time per hook (the document page, the preview dialog, or a whole list's rows).
 */
export function useSignedPdfDownload() {
  const [state, setState] = useState<"idle" | "loading" | "preparing">("idle");
  const [pendingId, setPendingId] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const finish = () => {
    setState("idle");
    setPendingId(null);
  };

  async function attempt(id: string, tries: number) {
    try {
      const result = await downloadSignedPdf(id);
      if (result.status === "saved") {
        finish();
        toast.success(DOCUMENT_MESSAGES.pdfDownloaded, {
          description: DOCUMENT_MESSAGES.pdfDownloadedText(result.name),
        });
        return;
      }
      if (tries >= MAX_TRIES) {
        finish();
        toast.error(DOCUMENT_MESSAGES.pdfUnavailable, {
          description: "O PDF assinado ainda não ficou pronto. Tente novamente em alguns minutos.",
        });
        return;
      }
      if (tries === 0) toast.info(SIGNED_PDF_PREPARING);
      setState("preparing");
      timer.current = setTimeout(() => void attempt(id, tries + 1), RETRY_MS);
    } catch {
      finish();
      toast.error(DOCUMENT_MESSAGES.downloadError, { description: DOCUMENT_MESSAGES.downloadErrorText });
    }
  }

  return {
    state,
    /** The document whose sealed PDF is being fetched (or awaited), or null. */
    pendingId,
    download: (id: string) => {
      if (state !== "idle") return;
      setState("loading");
      setPendingId(id);
      void attempt(id, 0);
    },
  };
}
