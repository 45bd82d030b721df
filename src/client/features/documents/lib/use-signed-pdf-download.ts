import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { DOCUMENT_MESSAGES } from "@shared/schemas/document";
import { downloadSignedPdf } from "../api/signing-api";

export const SIGNED_PDF_PREPARING = "O PDF assinado está sendo preparado. Ele será baixado assim que ficar pronto.";
const RETRY_MS = 3000;
const MAX_TRIES = 40;

/**
 * Baixar PDF assinado: the sealed PDF is made by a job after signing; while the server says it is
 * not there yet (404), say so and try again every few seconds (about two minutes at most).
 */
export function useSignedPdfDownload(id: string) {
  const [state, setState] = useState<"idle" | "loading" | "preparing">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  async function attempt(tries: number) {
    try {
      const result = await downloadSignedPdf(id);
      if (result.status === "saved") {
        setState("idle");
        toast.success(DOCUMENT_MESSAGES.pdfDownloaded, { description: DOCUMENT_MESSAGES.pdfDownloadedText(result.name) });
        return;
      }
      if (tries >= MAX_TRIES) {
        setState("idle");
        toast.error(DOCUMENT_MESSAGES.pdfUnavailable, { description: "O PDF assinado ainda não ficou pronto. Tente novamente em alguns minutos." });
        return;
      }
      if (tries === 0) toast.info(SIGNED_PDF_PREPARING);
      setState("preparing");
      timer.current = setTimeout(() => void attempt(tries + 1), RETRY_MS);
    } catch {
      setState("idle");
      toast.error(DOCUMENT_MESSAGES.downloadError, { description: DOCUMENT_MESSAGES.downloadErrorText });
    }
  }

  return {
    state,
    download: () => {
      if (state !== "idle") return;
      setState("loading");
      void attempt(0);
    },
  };
}
