import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "@/components/ui/button";

/** Anterior / Próxima over keyset pages. */
export function ListPagination({
  page,
  hasPrevious,
  hasNext,
  busy,
  onPrevious,
  onNext,
}: {
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  busy: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  return (
    <nav aria-label="Paginação" className="flex items-center justify-between gap-2 border-t px-4 py-3">
      <Button variant="outline" size="sm" onClick={onPrevious} disabled={!hasPrevious || busy}>
        <ChevronLeft /> Anterior
      </Button>
      <span className="text-sm text-muted-foreground" aria-live="polite">
        Página {page}
      </span>
      <Button variant="outline" size="sm" onClick={onNext} disabled={!hasNext || busy}>
        Próxima <ChevronRight />
      </Button>
    </nav>
  );
}
