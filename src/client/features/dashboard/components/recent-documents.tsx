import { ArrowRight, FileText } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardAction, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useRecentDocuments } from "@/features/documents";
import { formatDate, statusBadgeVariant } from "@/features/documents";
import { DOCUMENT_MESSAGES, RECENT_DOCUMENTS, dashboardBadge } from "@shared/schemas/document";

/** 'Contratos Recentes': the clinic's five newest documents (spec part 1 §2, §9). */
export function RecentDocuments() {
  const recent = useRecentDocuments();
  return (
    <Card className="gap-0 py-0" data-testid="recent-documents">
      <CardHeader className="border-b px-4 py-4 sm:px-6">
        <CardTitle>
          <h2 className="text-base font-semibold">Contratos Recentes</h2>
        </CardTitle>
        <CardAction>
          <Button variant="ghost" size="sm" asChild>
            <Link to="/documents">
              Ver Todos <ArrowRight />
            </Link>
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="px-0">
        {recent.isPending ? (
          <ul className="divide-y" aria-busy="true">
            {Array.from({ length: RECENT_DOCUMENTS }, (_, index) => (
              <li key={index} className="flex items-center gap-4 px-4 py-3 sm:px-6">
                <div className="grid flex-1 gap-1.5">
                  <Skeleton className="h-4 w-48" />
                  <Skeleton className="h-3 w-32" />
                </div>
                <Skeleton className="h-5 w-16" />
              </li>
            ))}
          </ul>
        ) : recent.isError || recent.data.length === 0 ? (
          <div className="p-4">
            <EmptyState
              icon={<FileText />}
              titleAs="h3"
              title={recent.isError ? "Não foi possível carregar os documentos recentes" : "Nenhum documento ainda"}
              description={recent.isError ? undefined : "Os documentos criados aparecem aqui."}
            />
          </div>
        ) : (
          <ul className="divide-y">
            {recent.data.map((doc) => (
              <li key={doc.id}>
                <Link
                  to={`/documents/${doc.id}`}
                  className="flex items-center gap-3 px-4 py-3 transition hover:bg-muted/50 focus-visible:bg-muted/50 focus-visible:outline-none sm:px-6"
                  data-testid="recent-document"
                >
                  <span className="grid min-w-0 flex-1 gap-0.5">
                    <span className="truncate text-sm font-medium">
                      {doc.paciente_nome ?? DOCUMENT_MESSAGES.noPatient}
                    </span>
                    <span className="truncate text-xs text-muted-foreground">
                      {doc.procedimento ?? doc.titulo} · {formatDate(doc.created_at)}
                      {doc.criador_nome ? ` · por ${doc.criador_nome}` : ""}
                    </span>
                  </span>
                  <Badge variant={statusBadgeVariant(doc.status, doc.revogado_at)} data-testid="recent-document-status">
                    {dashboardBadge(doc.status, doc.revogado_at)}
                  </Badge>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
