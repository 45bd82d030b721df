import { CloudUpload, TriangleAlert } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useFeegowFeatures } from "../api/feegow-api";
import { useDocumentFeegowUploads } from "../api/feegow-uploads-api";
import { useFeegowSend } from "../lib/use-feegow-send";
import { FeegowRetryButton, FeegowUploadBadge } from "./feegow-upload-status";
import { formatDateTime } from "@shared/format";
import { CHOICE_RECORD_TITLE } from "@shared/schemas/choices";
import type { FeegowUpload } from "@shared/schemas/feegow";

/**
 * The document page's Feegow card (decision 016): each upload of this document with its state and
 * Feegow's message, "Tentar de novo" on a failed one, and "Enviar ao Feegow" (the current PDF).
 * Shown when the clinic uses the upload, or when this document has uploads.
 */
const ORIGIN_LABEL: Readonly<Record<FeegowUpload["origem"], string>> = {
  assinado: "PDF assinado",
  manual: "PDF enviado pela equipe",
  recusa: CHOICE_RECORD_TITLE.recusa,
  revogacao: CHOICE_RECORD_TITLE.revogacao,
};

/** `refused`: the patient refused the term — its sealed refusal record goes, never the unsigned term. */
export function FeegowDocumentCard({
  documentId,
  canWrite,
  refused = false,
}: {
  documentId: string;
  canWrite: boolean;
  refused?: boolean;
}) {
  const features = useFeegowFeatures();
  const enabled = features.data?.file_upload === true;
  const uploads = useDocumentFeegowUploads(documentId, true);
  const { send, pendingId } = useFeegowSend();
  const items = uploads.data?.items ?? [];
  if (!enabled && items.length === 0) return null;

  return (
    <Card data-testid="feegow-document-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <CloudUpload className="size-4 text-primary" aria-hidden /> Feegow
        </CardTitle>
        <CardDescription>
          Envio do PDF ao prontuário do paciente no Feegow. O PDF continua salvo no Consentir em qualquer caso.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {items.length === 0 ? <p className="text-muted-foreground">Nenhum envio ainda.</p> : null}
        <ul className="grid gap-3">
          {items.slice(0, 5).map((upload) => (
            <li key={upload.id} className="grid gap-1.5 rounded-md border p-3" data-testid="feegow-upload">
              <div className="flex flex-wrap items-center gap-2">
                <FeegowUploadBadge upload={upload} />
                <span className="text-xs text-muted-foreground">
                  {ORIGIN_LABEL[upload.origem]} ·{" "}
                  {upload.enviado_at
                    ? `enviado em ${formatDateTime(upload.enviado_at)}`
                    : `desde ${formatDateTime(upload.created_at)}`}
                  {upload.tentativas > 1 ? ` · ${upload.tentativas} tentativas` : ""}
                </span>
              </div>
              {upload.ultimo_erro && upload.status !== "enviado" ? (
                <p
                  className={upload.status === "falhou" ? "text-destructive" : "text-muted-foreground"}
                  data-testid="feegow-upload-error"
                >
                  {upload.ultimo_erro}
                  {upload.status === "pendente" ? " Nova tentativa automática em instantes." : ""}
                </p>
              ) : null}
              {upload.possivel_duplicata ? (
                <Alert className="py-2">
                  <TriangleAlert />
                  <AlertDescription>
                    Uma tentativa anterior ficou sem resposta do Feegow: confira o prontuário do paciente, pode haver
                    uma cópia repetida deste PDF.
                  </AlertDescription>
                </Alert>
              ) : null}
              {upload.status === "falhou" && canWrite ? (
                <div>
                  <FeegowRetryButton upload={upload} />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
        {enabled && canWrite && !refused ? (
          <Button
            variant="outline"
            className="w-fit"
            onClick={() => void send(documentId)}
            disabled={pendingId === documentId}
          >
            {pendingId === documentId ? <Spinner /> : <CloudUpload />} Enviar PDF ao Feegow
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
