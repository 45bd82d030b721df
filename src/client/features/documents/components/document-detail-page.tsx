import { ArrowLeft, Ban, Download, FileSearch, FileWarning, Trash2 } from "lucide-react";
import type * as React from "react";
import { useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { DocumentView } from "@/components/document/document-view";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useCurrentUser } from "@/features/auth";
import { FeegowDocumentCard } from "@/features/integration";
import { LoadError } from "@/components/list/load-error";
import { errorMessage } from "@/lib/api";
import { ApiError } from "@/lib/api";
import { profileCan } from "@shared/permissions";
import { type AuditEntry, DOCUMENT_MESSAGES, type DocumentDetail, REVOKED_LABEL } from "@shared/schemas/document";
import { useDocument } from "../api/documents-api";
import { asDocumentModel } from "../lib/as-document-model";
import { formatDate, formatDateTime, isExpired, removalFor, showsExpiry, statusLabel } from "../lib/format";
import { usePdfDownload } from "../lib/use-pdf-download";
import { DRAFT_PDF_LABEL } from "../lib/use-signed-pdf-download";
import { DocumentInfoPanel } from "./document-info-panel";
import { DocumentPreviewDialog } from "./document-preview-dialog";
import { DocumentRemoveDialog, type RemovalTarget } from "./document-remove-dialog";
import { DocumentSignatures } from "./document-signatures";
import { ComprehensionPausedNotice } from "./document-comprehension";
import { DocumentSigningPanel, SignedPdfButton } from "./document-signing-panel";
import { WitnessesCard } from "./witnesses-card";
import { ARogoCard } from "./a-rogo-card";
import { DocumentMessagesCard } from "./document-messages-card";
import { ChoiceRecordsCard } from "./choice-records-card";
import { RecordChoicePanel } from "./record-choice-panel";
import { DocumentStatusBadge } from "./document-status-badge";

const TABS = ["conteudo", "dados", "auditoria"] as const;
type Tab = (typeof TABS)[number];

/** Audit actions that move the document's status, and the status they lead to. */
const STATUS_EVENTS: Record<string, string> = {
  "document.created": "draft",
  "document.sent": "sent",
  "document.viewed": "viewed",
  "document.signed": "signed",
  "document.cancelled": "cancelled",
  "document.expired": "expired",
  // Decision 056: a refusal is a status; a revocation leaves the document signed, but is shown.
  "document.refused": "recusado",
  "document.revoked": "revogado",
};

export function statusHistory(
  audit: readonly AuditEntry[],
): { id: string; status: string; at: string; who: string | null }[] {
  return audit
    .filter((event) => event.action in STATUS_EVENTS)
    .map((event) => ({
      id: event.id,
      status: STATUS_EVENTS[event.action]!,
      at: event.created_at,
      who: event.actor_nome,
    }));
}

/** /documents/:id (Ver Detalhes): content, data, status history and the audit trail. */
export function DocumentDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tabParam = params.get("aba");
  const tab: Tab = (TABS as readonly string[]).includes(tabParam ?? "") ? (tabParam as Tab) : "conteudo";
  const { data: user } = useCurrentUser();
  const canDelete = profileCan(user?.profile, "documents.delete");
  const canWrite = profileCan(user?.profile, "documents.write");
  const detail = useDocument(id);
  const { download, pendingId } = usePdfDownload();
  const [preview, setPreview] = useState(false);
  const [removal, setRemoval] = useState<RemovalTarget | null>(null);

  if (detail.isPending) return <DetailSkeleton />;
  if (detail.isError) {
    const notFound = detail.error instanceof ApiError && (detail.error.status === 404 || detail.error.status === 400);
    return notFound ? (
      <EmptyState
        icon={<FileWarning />}
        title={DOCUMENT_MESSAGES.notFound}
        description="O documento pode ter sido excluído ou pertence a outra clínica."
        action={
          <Button asChild variant="outline">
            <Link to="/documents">
              <ArrowLeft /> Voltar para Documentos
            </Link>
          </Button>
        }
      />
    ) : (
      <LoadError
        title="Não foi possível carregar o documento"
        message={errorMessage(detail.error)}
        onRetry={() => void detail.refetch()}
        retrying={detail.isFetching}
      />
    );
  }

  const doc = detail.data;
  const model = asDocumentModel(doc.documento);
  const mode = canDelete ? removalFor(doc.status) : null;
  const label = `${doc.short_id} · ${doc.paciente_nome ?? DOCUMENT_MESSAGES.noPatient}`;
  const signed = doc.status === "signed";

  return (
    <div className="grid min-w-0 gap-6">
      <div className="grid gap-3">
        <Link
          to="/documents"
          className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft className="size-4" aria-hidden /> Documentos
        </Link>
        {/* Side by side from xl: at lg (a 1024 px tablet) the sidebar leaves 768 px, too few for the buttons in one row. */}
        <div className="flex flex-col gap-4 xl:flex-row xl:items-start xl:justify-between">
          <div className="grid min-w-0 gap-1">
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="text-2xl font-semibold tracking-tight break-words">{doc.titulo}</h1>
              <DocumentStatusBadge status={doc.status} revogadoAt={doc.revogado_at} />
            </div>
            <p className="text-sm text-muted-foreground">
              <span className="tabular-nums">{doc.short_id}</span> · {doc.paciente_nome ?? DOCUMENT_MESSAGES.noPatient}{" "}
              · Criado em {formatDate(doc.created_at)}
              {showsExpiry(doc.status) ? (
                <span className={isExpired(doc.status, doc.expiracao_at) ? "font-medium text-destructive" : undefined}>
                  {" "}
                  · Expira em {formatDate(doc.expiracao_at)}
                </span>
              ) : null}
            </p>
          </div>
          <div className="flex flex-wrap gap-2 xl:shrink-0 xl:flex-nowrap">
            {signed ? <SignedPdfButton id={doc.id} hint={false} /> : null}
            {/* A refused term is not offered as a draft to print: its sealed refusal record is the paper. */}
            {doc.status === "recusado" ? null : (
              <Button
                variant={signed ? "outline" : "default"}
                onClick={() => void download(doc.id)}
                disabled={pendingId === doc.id}
                title="O PDF do documento sem as assinaturas, marcado 'RASCUNHO – sem validade'"
              >
                {pendingId === doc.id ? <Spinner /> : <Download />} {DRAFT_PDF_LABEL}
              </Button>
            )}
            <Button variant="outline" onClick={() => setPreview(true)}>
              <FileSearch /> Visualizar
            </Button>
            {mode ? (
              <Button
                variant="outline"
                className="text-destructive hover:text-destructive"
                onClick={() => setRemoval({ id: doc.id, mode, label })}
              >
                {mode === "delete" ? <Trash2 /> : <Ban />} {mode === "delete" ? "Excluir" : "Cancelar"}
              </Button>
            ) : null}
          </div>
        </div>
      </div>

      {/* A signed document's sealed PDF is the page's primary button (above), not repeated here. */}
      {["sent", "viewed"].includes(doc.status) || (doc.status === "draft" && canWrite) ? (
        <Card className="gap-3 py-4">
          <CardHeader className="px-4 sm:px-6">
            <CardTitle className="text-base">Assinatura</CardTitle>
          </CardHeader>
          <CardContent className="max-w-xl px-4 sm:px-6">
            <DocumentSigningPanel doc={doc} canWrite={canWrite} signedPdf={false} />
          </CardContent>
        </Card>
      ) : null}

      <ComprehensionPausedNotice pausedAt={doc.compreensao_pausada_at ?? null} status={doc.status} />
      <ChoiceRecordsCard doc={doc} />
      <RecordChoicePanel doc={doc} canWrite={canWrite} />

      {doc.status !== "cancelled" ? <ARogoCard doc={doc} canWrite={canWrite} /> : null}
      {doc.status !== "cancelled" ? <WitnessesCard doc={doc} canWrite={canWrite} /> : null}

      <DocumentMessagesCard documentId={doc.id} status={doc.status} />

      {doc.status === "cancelled" && doc.cancel_reason ? (
        <Alert variant="destructive" data-testid="cancel-reason">
          <Ban />
          <AlertTitle>Documento cancelado</AlertTitle>
          <AlertDescription>Motivo: {doc.cancel_reason}</AlertDescription>
        </Alert>
      ) : null}

      <FeegowDocumentCard documentId={doc.id} canWrite={canWrite} refused={doc.status === "recusado"} />

      {/* min-w-0: on a phone the tab row scrolls inside itself instead of widening the page. */}
      <Tabs
        className="min-w-0"
        value={tab}
        onValueChange={(next) => setParams(next === "conteudo" ? {} : { aba: next }, { replace: true })}
      >
        <TabsList className="w-full justify-start overflow-x-auto sm:w-fit">
          <TabsTrigger value="conteudo">Conteúdo</TabsTrigger>
          <TabsTrigger value="dados">Dados</TabsTrigger>
          <TabsTrigger value="auditoria">Trilha de Auditoria</TabsTrigger>
        </TabsList>
        <TabsContent value="conteudo" className="mt-2">
          {model ? (
            <div className="grid gap-4">
              <Card className="py-0">
                <CardContent className="p-4 sm:p-10">
                  {/* With the patient's Sim/Não to each optional consent, once signed (decision 057). */}
                  <DocumentView model={model} optionalAnswers={doc.consentimentos_opcionais ?? null} />
                </CardContent>
              </Card>
              <DocumentSignatures documentId={doc.id} status={doc.status} />
            </div>
          ) : (
            <Alert variant="destructive">
              <FileWarning />
              <AlertTitle>{DOCUMENT_MESSAGES.noTemplateContent}</AlertTitle>
            </Alert>
          )}
        </TabsContent>
        <TabsContent value="dados" className="mt-2">
          <DataTab doc={doc} />
        </TabsContent>
        <TabsContent value="auditoria" className="mt-2">
          <AuditTrail audit={doc.audit} />
        </TabsContent>
      </Tabs>

      <DocumentPreviewDialog documentId={preview ? doc.id : null} onClose={() => setPreview(false)} />
      <DocumentRemoveDialog
        target={removal}
        onClose={() => setRemoval(null)}
        onDone={(done) => {
          if (done === "delete") void navigate("/documents", { replace: true });
        }}
      />
    </div>
  );
}

function DataTab({ doc }: { doc: DocumentDetail }) {
  const history = statusHistory(doc.audit);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Paciente, médico e procedimento</CardTitle>
        </CardHeader>
        <CardContent>
          <DocumentInfoPanel document={doc} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Status</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="flex items-center gap-2 text-sm">
            Atual: <DocumentStatusBadge status={doc.status} revogadoAt={doc.revogado_at} />
          </div>
          <ol className="grid gap-3 border-l pl-4" aria-label="Histórico de status" data-testid="status-history">
            {history.map((entry) => (
              <li key={entry.id} className="relative grid gap-0.5 text-sm">
                <span aria-hidden className="absolute top-1.5 -left-[1.3rem] size-2 rounded-full bg-primary" />
                <span className="font-medium">
                  {entry.status === "revogado" ? REVOKED_LABEL : statusLabel(entry.status)}
                </span>
                <span className="text-xs text-muted-foreground">
                  {formatDateTime(entry.at)}
                  {entry.who ? ` · ${entry.who}` : ""}
                </span>
              </li>
            ))}
            {doc.status === "expired" && !history.some((entry) => entry.status === "expired") ? (
              <li className="grid gap-0.5 text-sm">
                <span className="font-medium">{statusLabel("expired")}</span>
                <span className="text-xs text-muted-foreground">{formatDateTime(doc.expiracao_at)}</span>
              </li>
            ) : null}
          </ol>
          {doc.status === "cancelled" && doc.cancel_reason ? (
            <p className="text-sm">Motivo do cancelamento: {doc.cancel_reason}</p>
          ) : null}
          <p className="text-xs break-all text-muted-foreground">SHA-256 do conteúdo: {doc.conteudo_sha256}</p>
        </CardContent>
      </Card>
    </div>
  );
}

/** Why a signing attempt was refused (document.sign_attempt_failed), in words. */
const FAILURE_REASON: Record<string, string> = {
  nome: "nome não confere",
  cpf: "CPF não confere",
  codigo: "código inválido ou expirado",
};

/** The site the signing page was shown inside (decision 071), as the server kept it; null: a direct link. */
function embeddedOrigin(data: Record<string, unknown>): string | null {
  const origem = (data.incorporado as { origem?: unknown } | undefined)?.origem;
  return typeof origem === "string" ? origem : null;
}

function AuditTrail({ audit }: { audit: readonly AuditEntry[] }) {
  if (audit.length === 0) return <p className="text-sm text-muted-foreground">Nenhum evento registrado.</p>;
  return (
    <Card className="py-0">
      <ol className="divide-y" aria-label="Trilha de Auditoria" data-testid="audit-trail">
        {audit.map((event) => (
          <li key={event.id} className="grid gap-1 px-4 py-3 text-sm sm:grid-cols-[12rem_1fr] sm:gap-4">
            <span className="text-muted-foreground tabular-nums">{formatDateTime(event.created_at)}</span>
            <div className="grid min-w-0 gap-0.5">
              <span className="font-medium">{event.label}</span>
              <Meta label="Por" value={event.actor_nome ?? "Sistema"} />
              <Meta label="IP" value={event.ip_address ?? "—"} />
              <Meta label="Navegador" value={event.user_agent ?? "—"} />
              {embeddedOrigin(event.data) ? (
                <Meta label="Página incorporada em" value={embeddedOrigin(event.data)} />
              ) : null}
              {typeof event.data.motivo === "string" ? (
                <Meta label="Motivo" value={FAILURE_REASON[event.data.motivo] ?? event.data.motivo} />
              ) : null}
            </div>
          </li>
        ))}
      </ol>
    </Card>
  );
}

function Meta({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <span className="text-xs break-words text-muted-foreground">
      {label}: <span className="text-foreground/80">{value}</span>
    </span>
  );
}

function DetailSkeleton() {
  return (
    <div className="grid gap-6" aria-busy="true">
      <span className="sr-only">Carregando documento</span>
      <Skeleton className="h-4 w-24" />
      <div className="grid gap-2">
        <Skeleton className="h-8 w-2/3" />
        <Skeleton className="h-4 w-1/2" />
      </div>
      <Skeleton className="h-9 w-72" />
      <Skeleton className="h-96 w-full" />
    </div>
  );
}
