import { Building2, Search, ShieldAlert, UserPlus, Users } from "lucide-react";
import type * as React from "react";
import { useRef, useState } from "react";
import { ListEmptyState } from "@/components/list/list-empty-state";
import { ListCard } from "@/components/list/list-card";
import { ListSkeleton } from "@/components/list/list-skeleton";
import { LoadError } from "@/components/list/load-error";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { useCurrentUser } from "@/features/auth";
import { ApiError, errorMessage } from "@/lib/api";
import { nextPage, previousPage, shownSoFar } from "@/lib/cursor-stack";
import { useUrlListState } from "@/lib/use-url-list-state";
import { profileCan } from "@shared/permissions";
import { USER_MESSAGES, USER_PAGE_SIZE } from "@shared/schemas/users";
import { useUsers } from "../api/users-api";
import { AddUserDialog } from "./add-user-dialog";
import { UsersTable } from "./users-table";

const codec = {
  read: (params: URLSearchParams) => ({ q: (params.get("q") ?? "").trim().slice(0, 100), filters: {} }),
  write: (q: string) => {
    const params = new URLSearchParams();
    if (q.trim()) params.set("q", q.trim());
    return params;
  },
};

function Refusal({ title, text, icon }: { title: string; text: string; icon: React.ReactNode }) {
  return (
    <div className="grid gap-6">
      <PageHeader title="Usuários" />
      <Card className="p-6">
        <EmptyState icon={icon} title={title} description={text} />
      </Card>
    </div>
  );
}

/** /users (spec part 2 §2, §6): the owner of an establishment manages the clinic's users. */
export function UsersPage() {
  const { data: me } = useCurrentUser();
  const isOwner = profileCan(me?.profile, "users.manage");
  const isEstablishment = me?.tenant.tipo_perfil === "estabelecimento";
  const allowed = isOwner && isEstablishment;
  const listTop = useRef<HTMLDivElement>(null);
  const [adding, setAdding] = useState(false);
  const { q, term, setTerm, pages, cursor, goTo } = useUrlListState<Record<string, never>>(codec, listTop);
  const list = useUsers({ q: q || undefined, cursor }, allowed);
  const data = list.data;

  if (!isOwner)
    return <Refusal title={USER_MESSAGES.accessDenied} text={USER_MESSAGES.ownersOnly} icon={<ShieldAlert />} />;
  if (!isEstablishment)
    return <Refusal title="Usuários" text={USER_MESSAGES.establishmentsOnly} icon={<Building2 />} />;

  let body: React.ReactNode;
  if (list.isPending) {
    body = <ListSkeleton mobile={false} label="Carregando usuários" />;
  } else if (list.isError) {
    const denied = list.error instanceof ApiError && list.error.status === 403;
    body = (
      <div className="p-4">
        <LoadError
          title={denied ? USER_MESSAGES.accessDenied : USER_MESSAGES.loadError}
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
          activeFilters={0}
          onClearFilters={() => undefined}
          searchTitle={USER_MESSAGES.emptySearch(q)}
          searchHint="Confira a grafia ou busque por outro dado."
          filtersTitle=""
          filtersHint=""
        >
          <EmptyState icon={<Users />} title={USER_MESSAGES.empty} />
        </ListEmptyState>
      </div>
    );
  } else if (data) {
    body = <UsersTable users={data.items} />;
  }

  const hasPrevious = pages.cursors.length > 0;
  const hasNext = Boolean(data?.next_cursor);

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Usuários"
        description="Gerencie quem acessa o Consentir na sua clínica"
        actions={
          <Button onClick={() => setAdding(true)}>
            <UserPlus /> Adicionar usuário
          </Button>
        }
      />
      <div className="relative" role="search">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden
        />
        <Input
          type="search"
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          placeholder={USER_MESSAGES.searchPlaceholder}
          aria-label="Buscar usuários"
          maxLength={100}
          className="pl-9 placeholder:text-sm"
        />
      </div>
      <ListCard
        ref={listTop}
        showing={
          data
            ? `Mostrando ${shownSoFar(pages, data.items.length, USER_PAGE_SIZE)} de ${data.total} usuário${data.total === 1 ? "" : "s"}`
            : null
        }
        showingTestId="users-showing"
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
      <AddUserDialog open={adding} onOpenChange={setAdding} />
    </div>
  );
}
