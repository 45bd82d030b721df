import { ListChecks, Pencil, Plus, SearchX } from "lucide-react";
import type * as React from "react";
import { useState } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Spinner } from "@/components/ui/spinner";
import { ListSkeleton } from "@/components/list/list-skeleton";
import { LoadError } from "@/components/list/load-error";
import { errorMessage } from "@/lib/api";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { ConfirmDeleteButton } from "@/features/procedures";
import { SearchBox } from "@/features/procedures";
import { CONTENT_KIND_LABEL, CONTENT_MESSAGES, type ContentItem, type ContentKind } from "@shared/schemas/content";
import { useContentItems, useDeleteContentItem } from "../api/content-api";
import { KIND_SINGULAR } from "../lib/labels";
import { ContentFormDialog } from "./content-form-dialog";

/** One tab of /content-management: search, list, create/edit in a dialog, delete. */
export function ContentTab({ kind, canEdit }: { kind: ContentKind; canEdit: boolean }) {
  const [term, setTerm] = useState("");
  const q = useDebouncedValue(term.trim(), 300);
  const list = useContentItems(kind, q);
  const remove = useDeleteContentItem(kind);
  const data = list.data;
  const [dialog, setDialog] = useState<{ open: boolean; item: ContentItem | null }>({ open: false, item: null });
  const singular = KIND_SINGULAR[kind];

  const newButton = canEdit ? (
    <Button onClick={() => setDialog({ open: true, item: null })}>
      <Plus /> Novo {singular.toLowerCase()}
    </Button>
  ) : null;

  let body: React.ReactNode;
  if (list.isPending) {
    body = <ListSkeleton mobile rows={3} label="Carregando itens" />;
  } else if (list.isError) {
    body = (
      <div className="p-4">
        <LoadError
          title={CONTENT_MESSAGES.loadError}
          message={errorMessage(list.error)}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      </div>
    );
  } else if (data && data.items.length === 0) {
    body = (
      <div className="p-4">
        {q ? (
          <EmptyState
            icon={<SearchX />}
            title={CONTENT_MESSAGES.emptySearch(q)}
            description="Confira a grafia ou busque por outro termo."
          />
        ) : (
          <EmptyState
            icon={<ListChecks />}
            title={CONTENT_MESSAGES.empty}
            description={`Cadastre ${CONTENT_KIND_LABEL[kind].toLowerCase()} para associá-los aos procedimentos.`}
            action={newButton}
          />
        )}
      </div>
    );
  } else if (data) {
    body = (
      <ul className="grid divide-y" aria-label={CONTENT_KIND_LABEL[kind]} data-testid={`content-list-${kind}`}>
        {data.items.map((item) => {
          const tag = kind === "cuidados" ? item.periodo : item.categoria;
          return (
            <li key={item.id} className="flex items-start gap-3 px-4 py-3" data-testid="content-item">
              <div className="grid min-w-0 flex-1 gap-1">
                <div className="flex flex-wrap items-center gap-2">
                  <p className="font-medium break-words">{item.titulo}</p>
                  {tag ? <Badge variant="outline">{tag}</Badge> : null}
                </div>
                <p className="line-clamp-3 text-sm whitespace-pre-line text-muted-foreground">{item.descricao}</p>
              </div>
              {canEdit ? (
                <div className="-mt-1 -mr-2 flex shrink-0 items-center">
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Editar ${item.titulo}`}
                    title="Editar"
                    onClick={() => setDialog({ open: true, item })}
                  >
                    <Pencil />
                  </Button>
                  <ConfirmDeleteButton
                    label={`Excluir ${item.titulo}`}
                    question={CONTENT_MESSAGES.confirmDelete}
                    description={`"${item.titulo}" será excluído e deixará de estar associado aos procedimentos.`}
                    onConfirm={async () => {
                      try {
                        await remove.mutateAsync(item.id);
                        toast.success(CONTENT_MESSAGES.deleted);
                      } catch (error) {
                        toast.error(CONTENT_MESSAGES.deleteError, { description: errorMessage(error) });
                      }
                    }}
                  />
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <div className="grid gap-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <SearchBox
          className="flex-1"
          value={term}
          onChange={setTerm}
          placeholder={CONTENT_MESSAGES.searchPlaceholder}
          label={`Buscar ${CONTENT_KIND_LABEL[kind].toLowerCase()}`}
        />
        {newButton}
      </div>
      <Card className="gap-0 overflow-hidden py-0">
        <div className="flex min-h-12 items-center justify-between gap-2 border-b px-4 py-2">
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {data
              ? `${data.items.length} ${data.items.length === 1 ? "item" : "itens"}${data.truncated ? " (refine a busca para ver mais)" : ""}`
              : "\u00a0"}
          </p>
          {list.isFetching && !list.isPending ? (
            <Spinner className="text-muted-foreground" label="Atualizando" />
          ) : null}
        </div>
        <div className={list.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}>{body}</div>
      </Card>
      <ContentFormDialog
        kind={kind}
        open={dialog.open}
        onOpenChange={(open) => setDialog((current) => ({ ...current, open }))}
        item={dialog.item}
      />
    </div>
  );
}
