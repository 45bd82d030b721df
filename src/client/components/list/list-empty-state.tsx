import { SearchX } from "lucide-react";
import type * as React from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

export interface ListEmptyStateProps {
  /** The active search term ("" when none). */
  q: string;
  /** How many filters are on. */
  activeFilters: number;
  onClearFilters(): void;
  /** Title when a search found nothing (the spec's 'Nenhum … encontrado para "{term}"'). */
  searchTitle: string;
  /** Hint under it when no filter is on. */
  searchHint: string;
  /** Title and hint when only filters are on. */
  filtersTitle: string;
  filtersHint: string;
  /** The list's own empty state (nothing registered yet). */
  children: React.ReactNode;
}

/** The three empty states of a searched and filtered list: by search, by filters, or truly empty. */
export function ListEmptyState({
  q,
  activeFilters,
  onClearFilters,
  searchTitle,
  searchHint,
  filtersTitle,
  filtersHint,
  children,
}: ListEmptyStateProps) {
  const clear = (
    <Button variant="outline" onClick={onClearFilters}>
      Limpar filtros
    </Button>
  );
  if (q) {
    return (
      <EmptyState
        icon={<SearchX />}
        title={searchTitle}
        description={activeFilters ? "Revise a busca ou limpe os filtros." : searchHint}
        action={activeFilters ? clear : undefined}
      />
    );
  }
  if (activeFilters)
    return <EmptyState icon={<SearchX />} title={filtersTitle} description={filtersHint} action={clear} />;
  return <>{children}</>;
}
