import { CloudUpload, Download, FileWarning } from "lucide-react";
import { DocumentView } from "@/components/document/document-view";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/features/auth";
import { useFeegowFeatures } from "@/features/integration";
import { useFeegowSend } from "@/features/integration";
import { errorMessage } from "@/lib/api";
import { profileCan } from "@shared/permissions";
import { DOCUMENT_MESSAGES, shortDocumentId } from "@shared/schemas/document";
import { useDocument } from "../api/documents-api";
import { asDocumentModel } from "../lib/as-document-model";
import { usePdfDownload } from "../lib/use-pdf-download";
import { DRAFT_PDF_LABEL } from "../lib/use-signed-pdf-download";
import { DocumentInfoPanel } from "./document-info-panel";
import { DocumentSignatures } from "./document-signatures";
import { DocumentSigningPanel } from "./document-signing-panel";
import { DocumentStatusBadge } from "./document-status-badge";

/**
 * The full-screen preview (spec part 1 §2 Document preview dialog): the frozen document, the
 * info panel, the PDF download, sending for signature with the link's actions, and the
 * Signatures block once signed, and the clinic-system button ("Feegow": sends the current PDF).
 */
export function DocumentPreviewDialog({ documentId, onClose }: { documentId: string | null; onClose: () => void }) {
  const detail = useDocument(documentId ?? undefined);
  const { download, pendingId } = usePdfDownload();
  const { data: user } = useCurrentUser();
  const canWrite = profileCan(user?.profile, "documents.write");
  const doc = detail.data;
  const model = doc ? asDocumentModel(doc.documento) : null;
  const feegowOn = useFeegowFeatures().data?.file_upload === true;
  const feegow = useFeegowSend();

  return (
    <Dialog open={documentId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        className="flex h-[100dvh] max-h-none w-screen max-w-none flex-col gap-0 overflow-hidden rounded-none border-0 p-0 sm:max-w-none"
        data-testid="document-preview-dialog"
      >
        <DialogHeader className="flex-row flex-wrap items-center gap-x-3 gap-y-1 border-b px-4 py-3 pr-12 text-left sm:px-6">
          <DialogTitle className="min-w-0 truncate">{doc?.titulo ?? "Visualizar documento"}</DialogTitle>
          {doc ? <DocumentStatusBadge status={doc.status} revogadoAt={doc.revogado_at} /> : null}
          <DialogDescription className="w-full sm:w-auto">
            {doc ? shortDocumentId(doc.id) : "Carregando documento"}
          </DialogDescription>
        </DialogHeader>
        <div className="grid min-h-0 flex-1 overflow-y-auto lg:grid-cols-[1fr_20rem] lg:overflow-hidden">
          <div className="min-w-0 bg-muted/40 p-3 sm:p-6 lg:overflow-y-auto">
            {detail.isPending ? (
              <div className="mx-auto grid max-w-3xl gap-3 rounded-lg bg-background p-6" aria-busy="true">
                <Skeleton className="mx-auto h-6 w-2/3" />
                <Skeleton className="h-4 w-full" />
                <Skeleton className="h-4 w-5/6" />
                <Skeleton className="h-4 w-4/6" />
              </div>
            ) : detail.isError ? (
              <Alert variant="destructive" className="mx-auto max-w-3xl">
                <FileWarning />
                <AlertTitle>{DOCUMENT_MESSAGES.contentError}</AlertTitle>
                <AlertDescription>{errorMessage(detail.error)}</AlertDescription>
              </Alert>
            ) : model ? (
              <div className="mx-auto grid max-w-3xl gap-4">
                <div className="rounded-lg border bg-background p-4 shadow-sm sm:p-10">
                  <DocumentView model={model} />
                </div>
                {doc ? <DocumentSignatures documentId={doc.id} status={doc.status} /> : null}
              </div>
            ) : (
              <Alert variant="destructive" className="mx-auto max-w-3xl">
                <FileWarning />
                <AlertTitle>{DOCUMENT_MESSAGES.noTemplateContent}</AlertTitle>
              </Alert>
            )}
          </div>
          <aside
            className="grid content-start gap-4 border-t p-4 sm:p-6 lg:overflow-y-auto lg:border-t-0 lg:border-l"
            aria-label="Informações do documento"
          >
            {doc ? (
              <>
                <DocumentSigningPanel doc={doc} canWrite={canWrite} />
                {/* Signed: the sealed PDF (in the panel above) is the primary download; the draft is secondary. */}
                {/* A refused term: its sealed refusal record is the paper, not a draft (decision 056). */}
                {doc.status === "recusado" ? null : (
                  <Button
                    variant={doc.status === "draft" || doc.status === "signed" ? "outline" : "default"}
                    onClick={() => void download(doc.id)}
                    disabled={pendingId === doc.id}
                    title="O PDF do documento sem as assinaturas, marcado 'RASCUNHO – sem validade'"
                  >
                    {pendingId === doc.id ? <Spinner /> : <Download />} {DRAFT_PDF_LABEL}
                  </Button>
                )}
                {feegowOn && canWrite && doc.status !== "recusado" ? (
                  <Button
                    variant="outline"
                    onClick={() => void feegow.send(doc.id)}
                    disabled={feegow.pendingId === doc.id}
                    title="Envia o PDF atual ao prontuário do paciente no Feegow"
                  >
                    {feegow.pendingId === doc.id ? <Spinner /> : <CloudUpload />} Feegow
                  </Button>
                ) : null}
                <DocumentInfoPanel document={doc} />
              </>
            ) : detail.isPending ? (
              <div className="grid gap-3">
                <Skeleton className="h-9 w-full" />
                <Skeleton className="h-4 w-2/3" />
                <Skeleton className="h-4 w-1/2" />
              </div>
            ) : null}
          </aside>
        </div>
      </DialogContent>
    </Dialog>
  );
}
