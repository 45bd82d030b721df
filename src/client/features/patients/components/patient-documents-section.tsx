import { FileText } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useDocuments } from "@/features/documents";
import { DocumentStatusBadge } from "@/features/documents";
import { documentsLabel } from "../lib/labels";
import { formatInstantDateBR } from "../lib/dates";

const SHOWN = 5;

/** The patient's latest documents on their page, with the way to all of them. */
export function PatientDocumentsSection({ patientId, total }: { patientId: string; total: number }) {
  const documents = useDocuments({ paciente_id: patientId, limit: SHOWN });
  const items = documents.data?.items ?? [];
  return (
    <section id="documentos" aria-labelledby="documentos-title" className="grid scroll-mt-20 gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="documentos-title" className="text-lg font-semibold">
          Documentos
        </h2>
        <span className="text-sm text-muted-foreground">{documentsLabel(total)}</span>
      </div>
      {documents.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : items.length === 0 ? (
        <EmptyState
          icon={<FileText />}
          titleAs="h3"
          title="Nenhum documento para este paciente"
          description="Os documentos deste paciente aparecerão aqui."
        />
      ) : (
        <ul className="divide-y rounded-lg border bg-card" data-testid="patient-documents">
          {items.map((document) => (
            <li key={document.id}>
              <Link
                to={`/documents/${document.id}`}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 p-3 hover:bg-muted/50"
              >
                <span className="min-w-0 flex-1 truncate font-medium">{document.procedimento ?? document.titulo}</span>
                <DocumentStatusBadge status={document.status} revogadoAt={document.revogado_at} />
                <span className="text-xs text-muted-foreground">
                  {document.short_id} · {formatInstantDateBR(document.created_at)}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {total > SHOWN ? (
        <Button asChild variant="outline" className="justify-self-start">
          <Link to={`/documents?paciente=${encodeURIComponent(patientId)}`}>Ver todos os documentos</Link>
        </Button>
      ) : null}
    </section>
  );
}
