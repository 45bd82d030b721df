import { AlertTriangle, FilePlus2, FileText, Search, Send } from "lucide-react";
import type * as React from "react";
import { useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { ListEmptyState } from "@/components/list/list-empty-state";
import { useIsMobile } from "@/components/ui/use-mobile";
import { useCurrentUser } from "@/features/auth";
import { useFeegowRowActions } from "@/features/integration";
import { LoadError } from "@/components/list/load-error";
import { ListCard } from "@/components/list/list-card";
import { errorMessage } from "@/lib/api";
import { nextPage, previousPage, shownSoFar } from "@/lib/cursor-stack";
import { useUrlListState } from "@/lib/use-url-list-state";
import { profileCan } from "@shared/permissions";
import { DOCUMENT_MESSAGES, DOCUMENT_PAGE_SIZE } from "@shared/schemas/document";
import { useDocumentCounters, useDocumentFormOptions, useDocuments } from "../api/documents-api";
import {
  countActiveFilters,
  type DocumentFilters as Filters,
  readDocumentListState,
  toApiQuery,
  writeDocumentListState,
} from "../lib/list-params";
import { usePdfDownload } from "../lib/use-pdf-download";
import { useSignedPdfDownload } from "../lib/use-signed-pdf-download";
import type { DocumentRowHandlers } from "./document-actions";
import { DocumentCounters } from "./document-counters";
import { DocumentFilterChips, DocumentFiltersButton } from "./document-filters";
import { DocumentListSkeleton } from "./document-list-skeleton";
import { DocumentPreviewDialog } from "./document-preview-dialog";
import { DocumentRemoveDialog, type RemovalTarget } from "./document-remove-dialog";
import { DocumentCards, DocumentTable } from "./document-rows";
import { SendForSignatureDialog, type SendTarget } from "./send-for-signature-dialog";

/**
 * /documents (spec part 1 §2): counters, a server-side search, filters kept in the address bar
 * (?status=expired, ?paciente=<id> are linked from the dashboard and the patients list) and
 * keyset pages.
 */
export function DocumentsListPage() {
  const { data: user } = useCurrentUser();
  const canWrite = profileCan(user?.profile, "documents.write");
  const canDelete = profileCan(user?.profile, "documents.delete");
  const isMobile = useIsMobile();
  const listTop = useRef<HTMLDivElement>(null);

  const { q, filters, term, setTerm, setFilters, pages, cursor, goTo } = useUrlListState<Filters>(
    { read: readDocumentListState, write: writeDocumentListState },
    listTop,
  );

  const list = useDocuments(toApiQuery(q, filters, cursor));
  const counters = useDocumentCounters();
  const options = useDocumentFormOptions(canWrite);
  const physicians = useMemo(
    () => (options.data ? options.data.physicians.map(({ id, nome }) => ({ id, nome })) : null),
    [options.data],
  );
  const activeFilters = countActiveFilters(filters);
  const data = list.data;

  const [previewId, setPreviewId] = useState<string | null>(null);
  const [removal, setRemoval] = useState<RemovalTarget | null>(null);
  const [sending, setSending] = useState<SendTarget | null>(null);
  const { download } = usePdfDownload();
  const signedPdf = useSignedPdfDownload();
  // Feegow (decision 016): each row's upload status, "Gerar e Enviar PDF", "Tentar de novo".
  const feegow = useFeegowRowActions(
    useMemo(() => data?.items.map((doc) => doc.id) ?? [], [data]),
    canWrite,
  );
  const handlers: DocumentRowHandlers = {
    ...feegow,
    canDelete,
    onPreview: setPreviewId,
    onDownload: (id) => void download(id),
    onDownloadSigned: signedPdf.download,
    onRemove: setRemoval,
    onSend: canWrite ? setSending : undefined,
  };

  const newButton = canWrite ? (
    <Button asChild>
      <Link to="/documents/create">
        <FilePlus2 /> Novo Documento
      </Link>
    </Button>
  ) : undefined;
  const headerActions = canWrite ? (
    <div className="flex flex-col gap-2 sm:flex-row">
      <Button variant="outline" asChild>
        <Link to="/documents/bulk">
          <Send /> Enviar em lote
        </Link>
      </Button>
      {newButton}
    </div>
  ) : undefined;

  let body: React.ReactNode;
  if (list.isPending) {
    body = <DocumentListSkeleton mobile={isMobile} />;
  } else if (list.isError) {
    body = (
      <div className="p-4">
        <LoadError
          title="Não foi possível carregar os documentos"
          message={errorMessage(list.error)}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      </div>
    );
  } else if (data && data.items.length === 0) {
    body = (
      <div className="p-4">
        <ListEmptyState
          q={q}
          activeFilters={activeFilters}
          onClearFilters={() => setFilters({})}
          searchTitle={DOCUMENT_MESSAGES.emptySearch(q)}
          searchHint="Busque pelo nome do paciente, pelo procedimento, pelo título ou pelo ID."
          filtersTitle="Nenhum documento corresponde aos filtros"
          filtersHint="Altere ou limpe os filtros para ver mais documentos."
        >
          <EmptyState
            icon={<FileText />}
            title={DOCUMENT_MESSAGES.empty}
            description={DOCUMENT_MESSAGES.emptyHint}
            action={newButton}
          />
        </ListEmptyState>
      </div>
    );
  } else if (data) {
    body = isMobile ? (
      <DocumentCards documents={data.items} handlers={handlers} />
    ) : (
      <DocumentTable documents={data.items} handlers={handlers} />
    );
  }

  const hasPrevious = pages.cursors.length > 0;
  const hasNext = Boolean(data?.next_cursor);
  const expired = counters.data?.expirados ?? 0;

  if (!user) return <p>{DOCUMENT_MESSAGES.noTenant}</p>;

  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader
        title="Documentos"
        description="Gerencie os termos de consentimento e assinaturas"
        actions={headerActions}
      />

      <DocumentCounters counters={counters.data} loading={counters.isPending} />

      {expired > 0 ? (
        <Alert className="border-destructive/40 bg-destructive/5" data-testid="expired-warning">
          <AlertTriangle className="text-destructive" />
          <AlertTitle>{DOCUMENT_MESSAGES.expiredWarningTitle}</AlertTitle>
          <AlertDescription className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
            <span>
              {expired === 1
                ? "1 documento passou do prazo de assinatura."
                : `${expired} documentos passaram do prazo de assinatura.`}{" "}
              Reenvie ou cancele conforme o caso.
            </span>
            {filters.status !== "expired" ? (
              <Button
                variant="outline"
                size="sm"
                className="shrink-0"
                onClick={() => setFilters({ ...filters, status: "expired" })}
              >
                Ver expirados
              </Button>
            ) : null}
          </AlertDescription>
        </Alert>
      ) : null}

      <div className="grid gap-3">
        <div className="flex gap-2" role="search">
          <div className="relative min-w-0 flex-1">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden
            />
            <Input
              type="search"
              value={term}
              onChange={(event) => setTerm(event.target.value)}
              placeholder={DOCUMENT_MESSAGES.searchPlaceholder}
              aria-label="Buscar documentos"
              maxLength={100}
              className="pl-9 placeholder:text-sm"
            />
          </div>
          <DocumentFiltersButton value={filters} onChange={setFilters} physicians={physicians} />
        </div>
        <DocumentFilterChips value={filters} onChange={setFilters} physicians={physicians} />
      </div>

      <ListCard
        ref={listTop}
        showing={
          data
            ? DOCUMENT_MESSAGES.showing(
                shownSoFar(pages, data.items.length, DOCUMENT_PAGE_SIZE),
                data.total,
                data.total_capped,
              )
            : null
        }
        showingTestId="documents-showing"
        refreshing={list.isFetching && !list.isPending}
        placeholder={list.isPlaceholderData}
        paging={{
          page: pages.cursors.length + 1,
          hasPrevious,
          hasNext,
          onPrevious: () => goTo(previousPage(pages)),
          onNext: () => goTo(nextPage(pages, data?.next_cursor ?? null)),
        }}
      >
        {body}
      </ListCard>

      <DocumentPreviewDialog documentId={previewId} onClose={() => setPreviewId(null)} />
      <DocumentRemoveDialog target={removal} onClose={() => setRemoval(null)} />
      <SendForSignatureDialog target={sending} onClose={() => setSending(null)} />
    </div>
  );
}
