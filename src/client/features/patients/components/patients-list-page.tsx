import { Search, UserPlus, Users } from "lucide-react";
import type * as React from "react";
import { useRef } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { ListEmptyState } from "@/components/list/list-empty-state";
import { useIsMobile } from "@/components/ui/use-mobile";
import { useCurrentUser } from "@/features/auth";
import { useUrlListState } from "@/lib/use-url-list-state";
import { PATIENT_MESSAGES, PATIENT_PAGE_SIZE } from "@shared/schemas/patient";
import { usePatients } from "../api/patients-api";
import { errorMessage } from "@/lib/api";
import { nextPage, previousPage, shownSoFar } from "@/lib/cursor-stack";
import { countActiveFilters, type PatientFilters as Filters, readListState, writeListState } from "../lib/list-params";
import { PatientCards } from "./patient-cards";
import { PatientFilters } from "./patient-filters";
import { ListSkeleton } from "@/components/list/list-skeleton";
import { LoadError } from "@/components/list/load-error";
import { ListCard } from "@/components/list/list-card";
import { PatientStats } from "./patient-stats";
import { PatientTable } from "./patient-table";
import { profileCan } from "@shared/permissions";

/**
 * /patients (spec part 1 §2): counters, a server-side search and filters kept in the address
 * bar (so Back returns to the same list), and keyset pages.
 */
export function PatientsListPage() {
  const { data: user } = useCurrentUser();
  const canEdit = profileCan(user?.profile, "patients.write");
  const isMobile = useIsMobile();
  const listTop = useRef<HTMLDivElement>(null);

  const { q, filters, term, setTerm, setFilters, pages, cursor, goTo } = useUrlListState<Filters>(
    { read: readListState, write: writeListState },
    listTop,
  );

  const list = usePatients({ q: q || undefined, ...filters, cursor });
  const data = list.data;
  const activeFilters = countActiveFilters(filters);

  let body: React.ReactNode;
  if (list.isPending) {
    body = <ListSkeleton mobile={isMobile} label="Carregando pacientes" />;
  } else if (list.isError) {
    body = (
      <div className="p-4">
        <LoadError
          title="Não foi possível carregar os pacientes"
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
          searchTitle={PATIENT_MESSAGES.emptySearch(q)}
          searchHint="Confira a grafia ou busque por outro dado."
          filtersTitle="Nenhum paciente corresponde aos filtros"
          filtersHint="Altere ou limpe os filtros para ver mais pacientes."
        >
          <EmptyState
            icon={<Users />}
            title={PATIENT_MESSAGES.empty}
            description={PATIENT_MESSAGES.emptyHint}
            action={
              canEdit ? (
                <Button asChild>
                  <Link to="/patients/create">
                    <UserPlus /> Novo Paciente
                  </Link>
                </Button>
              ) : undefined
            }
          />
        </ListEmptyState>
      </div>
    );
  } else if (data) {
    body = isMobile ? (
      <PatientCards patients={data.items} canEdit={canEdit} />
    ) : (
      <PatientTable patients={data.items} canEdit={canEdit} />
    );
  }

  const hasPrevious = pages.cursors.length > 0;
  const hasNext = Boolean(data?.next_cursor);

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Pacientes"
        description="Gerencie os pacientes da sua clínica"
        actions={
          canEdit ? (
            <Button asChild>
              <Link to="/patients/create">
                <UserPlus /> Novo Paciente
              </Link>
            </Button>
          ) : undefined
        }
      />

      <PatientStats />

      <div className="flex flex-col gap-2 sm:flex-row" role="search">
        <div className="relative min-w-0 flex-1">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden
          />
          <Input
            type="search"
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            placeholder={PATIENT_MESSAGES.searchPlaceholder}
            aria-label="Buscar pacientes"
            maxLength={100}
            className="pl-9 placeholder:text-sm"
          />
        </div>
        <PatientFilters value={filters} onChange={setFilters} />
      </div>

      <ListCard
        ref={listTop}
        showing={
          data ? PATIENT_MESSAGES.showing(shownSoFar(pages, data.items.length, PATIENT_PAGE_SIZE), data.total) : null
        }
        showingTestId="patients-showing"
        refreshing={list.isFetching && !list.isPending}
        placeholder={list.isPlaceholderData}
        headerActions={
          activeFilters ? (
            <Button variant="link" size="sm" className="h-auto px-0" onClick={() => setFilters({})}>
              Limpar filtros
            </Button>
          ) : null
        }
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
