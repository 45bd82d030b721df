import { CircleAlert, CircleCheck, CloudUpload, Loader2, RotateCcw } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { FEEGOW_IMPORT_MESSAGES, FEEGOW_UPLOAD_STATUS_LABEL, type FeegowUpload } from "@shared/schemas/feegow";
import { useRetryFeegowUpload } from "../api/feegow-uploads-api";

/** A document's upload to Feegow as a small badge (documents list, detail page). */
export function FeegowUploadBadge({ upload }: { upload: FeegowUpload | undefined }) {
  if (!upload) return null;
  const { status } = upload;
  const variant = status === "enviado" ? "success" : status === "falhou" ? "outline" : "secondary";
  const Icon =
    status === "enviado"
      ? CircleCheck
      : status === "falhou"
        ? CircleAlert
        : status === "enviando"
          ? Loader2
          : CloudUpload;
  const title =
    status === "falhou" || (status === "pendente" && upload.ultimo_erro)
      ? (upload.ultimo_erro ?? undefined)
      : undefined;
  return (
    <Badge
      variant={variant}
      className={status === "falhou" ? "border-destructive/40 bg-destructive/10 text-destructive" : undefined}
      data-testid="feegow-upload-status"
      data-status={status}
      title={title}
    >
      <Icon aria-hidden className={status === "enviando" ? "animate-spin" : undefined} /> Feegow:{" "}
      {FEEGOW_UPLOAD_STATUS_LABEL[status]}
    </Badge>
  );
}

/** "Tentar de novo" on a failed upload. */
export function FeegowRetryButton({ upload, size = "sm" }: { upload: FeegowUpload; size?: "sm" | "default" }) {
  const retry = useRetryFeegowUpload();
  async function run() {
    try {
      await retry.mutateAsync(upload.id);
      toast.success(FEEGOW_IMPORT_MESSAGES.uploadQueued, {
        description: "O PDF entrou de novo na fila de envio ao Feegow.",
      });
    } catch (error) {
      toast.error(FEEGOW_IMPORT_MESSAGES.uploadRetry, { description: errorMessage(error) });
    }
  }
  return (
    <Button variant="outline" size={size} onClick={() => void run()} disabled={retry.isPending}>
      {retry.isPending ? <Spinner /> : <RotateCcw />} {FEEGOW_IMPORT_MESSAGES.uploadRetry}
    </Button>
  );
}

/** Under a document row: why its last upload failed (the list has no room for more). */
export function FeegowUploadNote({ upload }: { upload: FeegowUpload | undefined }) {
  if (upload?.status !== "falhou" || !upload.ultimo_erro) return null;
  return (
    <span
      className="block max-w-full truncate text-xs text-destructive"
      title={upload.ultimo_erro}
      data-testid="feegow-upload-error"
    >
      {upload.ultimo_erro}
    </span>
  );
}
