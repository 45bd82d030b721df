import { QrCode, Search, TabletSmartphone } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { ListCard } from "@/components/list/list-card";
import { ListSkeleton } from "@/components/list/list-skeleton";
import { LoadError } from "@/components/list/load-error";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { type CursorStack, currentCursor, nextPage, previousPage, shownSoFar } from "@/lib/cursor-stack";
import { errorMessage } from "@/lib/api";
import { useDocuments } from "@/features/documents";
import { DocumentStatusBadge } from "@/features/documents";
import { formatDateTime } from "@/features/documents";
import { HandOverDialog, type HandOverTarget } from "./hand-over-dialog";
import { LinkQrDialog } from "./link-qr-dialog";

const PAGE_SIZE = 20;

/**
 * /sign — "Assinar" on the phone bar: the documents waiting for the patient's signature,
 * each with "Assinar neste aparelho" (front-desk signing on this tablet, locked) and a QR code the
 * patient scans with their own phone.
 */
export function FrontDeskPage() {
  const [term, setTerm] = useState("");
  const q = useDebouncedValue(term.trim(), 300);
  const [stack, setStack] = useState<CursorStack>({ key: "", cursors: [] });
  const pages = stack.key === q ? stack : { key: q, cursors: [] };
  const list = useDocuments({ aguardando: "1", q: q || undefined, cursor: currentCursor(pages), limit: PAGE_SIZE });
  const [handOver, setHandOver] = useState<HandOverTarget | null>(null);
  const [qrFor, setQrFor] = useState<string | null>(null);
  const data = list.data;

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Assinar"
        description="Documentos aguardando a assinatura do paciente: assine neste aparelho ou mostre o QR code."
      />
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden
        />
        <Input
          type="search"
          aria-label="Buscar documentos aguardando assinatura"
          placeholder="Buscar por paciente ou documento..."
          className="pl-9"
          value={term}
          onChange={(event) => setTerm(event.target.value)}
        />
      </div>
      {list.isPending ? (
        <ListSkeleton mobile rows={4} label="Carregando documentos" />
      ) : list.isError && !data ? (
        <LoadError
          title="Erro ao carregar documentos"
          message={errorMessage(list.error)}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      ) : data && data.items.length === 0 ? (
        <EmptyState
          icon={<TabletSmartphone />}
          title={q ? "Nenhum documento encontrado" : "Nenhum documento aguardando assinatura"}
          description={q ? "Tente outro nome ou título." : "Envie um documento para assinatura e ele aparece aqui."}
          action={
            q ? undefined : (
              <Button asChild variant="outline">
                <Link to="/documents">Ver documentos</Link>
              </Button>
            )
          }
        />
      ) : data ? (
        <ListCard
          showing={`${shownSoFar(pages, data.items.length, PAGE_SIZE)} de ${data.total} aguardando assinatura`}
          showingTestId="front-desk-showing"
          refreshing={list.isFetching && !list.isPlaceholderData}
          placeholder={list.isPlaceholderData}
          paging={{
            page: pages.cursors.length + 1,
            hasPrevious: pages.cursors.length > 0,
            hasNext: Boolean(data.next_cursor),
            onPrevious: () => setStack(previousPage(pages)),
            onNext: () => setStack(nextPage(pages, data.next_cursor)),
          }}
        >
          <ul className="grid divide-y" aria-label="Documentos aguardando assinatura">
            {data.items.map((doc) => (
              <li
                key={doc.id}
                className="grid gap-3 px-4 py-4 lg:grid-cols-[1fr_auto] lg:items-center"
                data-testid="front-desk-row"
              >
                <div className="grid min-w-0 gap-1">
                  <p className="truncate text-base font-medium">{doc.paciente_nome ?? "Paciente"}</p>
                  <Link to={`/documents/${doc.id}`} className="truncate text-sm text-muted-foreground hover:underline">
                    {doc.titulo}
                  </Link>
                  <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                    <DocumentStatusBadge status={doc.status} revogadoAt={doc.revogado_at} />
                    <span>Prazo {formatDateTime(doc.expiracao_at)}</span>
                  </div>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button
                    size="lg"
                    onClick={() => setHandOver({ id: doc.id, titulo: doc.titulo, paciente: doc.paciente_nome })}
                  >
                    <TabletSmartphone /> Assinar neste aparelho
                  </Button>
                  <Button size="lg" variant="outline" onClick={() => setQrFor(doc.id)}>
                    <QrCode /> QR code
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </ListCard>
      ) : null}
      <HandOverDialog target={handOver} onOpenChange={(open) => !open && setHandOver(null)} />
      <LinkQrDialog documentId={qrFor} onOpenChange={(open) => !open && setQrFor(null)} />
    </div>
  );
}
