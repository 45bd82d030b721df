import { FilePlus2, FileText, SearchX } from "lucide-react";
import type * as React from "react";
import { useRef } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { useIsMobile } from "@/components/ui/use-mobile";
import { useCurrentUser } from "@/features/auth";
import { ListSkeleton } from "@/components/list/list-skeleton";
import { LoadError } from "@/components/list/load-error";
import { ListCard } from "@/components/list/list-card";
import { errorMessage } from "@/lib/api";
import { nextPage, previousPage, shownSoFar } from "@/lib/cursor-stack";
import { useUrlListState } from "@/lib/use-url-list-state";
import { SearchBox } from "@/features/procedures";
import { profileCan } from "@shared/permissions";
import { TEMPLATE_MESSAGES, TEMPLATE_PAGE_SIZE } from "@shared/schemas/template";
import { useTemplates } from "../api/templates-api";
import { formatNumber } from "@shared/format";
import { TemplateCards, TemplateTable } from "./template-list";
import { TemplateStats } from "./template-stats";

const TEMPLATE_LIST_CODEC = {
  read: (params: URLSearchParams) => ({ q: (params.get("q") ?? "").trim().slice(0, 100), filters: {} }),
  write: (q: string) => new URLSearchParams(q.trim() ? { q: q.trim() } : {}),
};

/** /templates (spec part 2 §2 Templates list): counters, server-side search, keyset pages. */
export function TemplatesListPage() {
  const { data: user } = useCurrentUser();
  const canWrite = profileCan(user?.profile, "templates.write");
  const isMobile = useIsMobile();
  const listTop = useRef<HTMLDivElement>(null);
  // The search lives in the address bar (?q=), like the patients and documents lists.
  const { q, term, setTerm, pages, cursor, goTo } = useUrlListState(TEMPLATE_LIST_CODEC, listTop);
  const list = useTemplates(q, cursor);
  const data = list.data;

  const newButton = canWrite ? (
    <Button asChild>
      <Link to="/templates/create">
        <FilePlus2 /> Novo Template
      </Link>
    </Button>
  ) : undefined;

  let body: React.ReactNode;
  if (list.isPending) {
    body = <ListSkeleton mobile={isMobile} label="Carregando templates" />;
  } else if (list.isError) {
    body = (
      <div className="p-4">
        <LoadError
          title="Não foi possível carregar os templates"
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
            title={TEMPLATE_MESSAGES.emptySearch(q)}
            description="Confira a grafia ou busque por outro título, especialidade ou categoria."
          />
        ) : (
          <EmptyState
            icon={<FileText />}
            title={TEMPLATE_MESSAGES.empty}
            description={TEMPLATE_MESSAGES.emptyHint}
            action={newButton}
          />
        )}
      </div>
    );
  } else if (data) {
    body = isMobile ? (
      <TemplateCards templates={data.items} canWrite={canWrite} />
    ) : (
      <TemplateTable templates={data.items} canWrite={canWrite} />
    );
  }

  const hasPrevious = pages.cursors.length > 0;
  const hasNext = Boolean(data?.next_cursor);

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Templates"
        description="Modelos de documento da clínica: termos de consentimento, contratos e outros"
        actions={newButton}
      />

      <TemplateStats />

      <SearchBox
        value={term}
        onChange={setTerm}
        placeholder={TEMPLATE_MESSAGES.searchPlaceholder}
        label="Buscar templates"
      />

      <ListCard
        ref={listTop}
        showing={
          data
            ? `Mostrando ${formatNumber(shownSoFar(pages, data.items.length, TEMPLATE_PAGE_SIZE))} de ${formatNumber(data.total)} templates`
            : null
        }
        showingTestId="templates-showing"
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
    </div>
  );
}
