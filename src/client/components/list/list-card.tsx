import type * as React from "react";
import { Card } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { ListPagination } from "./list-pagination";

export interface ListCardPaging {
  /** 1-based page number shown between Anterior and Próxima. */
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}

/**
 * The frame every server-paged list shares (patients, documents, templates, users): the
 * "Mostrando X de Y" line with a refreshing spinner and optional actions, the rows (dimmed while
 * the next page's data is a placeholder), and Anterior/Próxima when there is more than one page.
 */
export function ListCard({
  ref,
  showing,
  showingTestId,
  refreshing,
  placeholder,
  headerActions,
  paging,
  children,
}: {
  ref?: React.Ref<HTMLDivElement>;
  /** The "Mostrando …" text, or null while the first page loads. */
  showing: React.ReactNode | null;
  showingTestId: string;
  /** Fetching again in the background (not the first load). */
  refreshing: boolean;
  /** The rows shown are the previous page's while the next one loads. */
  placeholder: boolean;
  headerActions?: React.ReactNode;
  paging: ListCardPaging;
  children: React.ReactNode;
}) {
  return (
    <Card ref={ref} className="scroll-mt-20 gap-0 overflow-hidden py-0">
      <div className="flex min-h-12 items-center justify-between gap-2 border-b px-4 py-2">
        <p className="text-sm text-muted-foreground" aria-live="polite" data-testid={showingTestId}>
          {showing ?? "\u00a0"}
        </p>
        <div className="flex items-center gap-2">
          {refreshing ? <Spinner className="text-muted-foreground" label="Atualizando" /> : null}
          {headerActions}
        </div>
      </div>
      <div className={placeholder ? "opacity-60 transition-opacity" : undefined}>{children}</div>
      {paging.hasPrevious || paging.hasNext ? (
        <ListPagination
          page={paging.page}
          hasPrevious={paging.hasPrevious}
          hasNext={paging.hasNext}
          busy={placeholder}
          onPrevious={paging.onPrevious}
          onNext={paging.onNext}
        />
      ) : null}
    </Card>
  );
}
