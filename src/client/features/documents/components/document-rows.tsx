import { Link } from "react-router";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/utils";
import { DOCUMENT_MESSAGES, type DocumentSummary } from "@shared/schemas/document";
import { formatDate, isExpired, showsExpiry } from "../lib/format";
import { type DocumentRowHandlers, DocumentRowMenu, DocumentRowSheet } from "./document-actions";
import { AwaitingProfessionalBadge, DocumentStatusBadge } from "./document-status-badge";
import { FeegowUploadBadge, FeegowUploadNote } from "@/features/integration";

/** "Expira dd/mm/aaaa" (red once passed); nothing for signed documents (spec part 1 §2). */
function Expiry({ doc, now }: { doc: DocumentSummary; now: Date }) {
  if (!showsExpiry(doc.status)) return null;
  const expired = isExpired(doc.status, doc.expiracao_at, now);
  return (
    <span
      className={cn("tabular-nums", expired ? "font-medium text-destructive" : "text-muted-foreground")}
      data-testid="document-expiry"
      data-expired={expired || undefined}
    >
      Expira {formatDate(doc.expiracao_at)}
    </span>
  );
}

const patientOf = (doc: DocumentSummary) => doc.paciente_nome ?? DOCUMENT_MESSAGES.noPatient;
const professionalOf = (doc: DocumentSummary) => doc.profissional_nome ?? DOCUMENT_MESSAGES.noProfessional;

/** The list at 768 px and wider. */
export function DocumentTable({
  documents,
  handlers,
}: {
  documents: DocumentSummary[];
  handlers: DocumentRowHandlers;
}) {
  const now = new Date();
  return (
    <Table aria-label="Documentos" data-testid="documents-table">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead className="pl-4">Paciente</TableHead>
          <TableHead>Procedimento</TableHead>
          <TableHead className="hidden lg:table-cell">Profissional</TableHead>
          <TableHead>Datas</TableHead>
          <TableHead className="w-12 pr-4">
            <span className="sr-only">Ações</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {documents.map((doc) => (
          <TableRow key={doc.id} data-testid="document-row">
            <TableCell className="max-w-64 py-3 pl-4">
              <div className="flex min-w-0 flex-wrap items-center gap-2">
                <Link
                  to={`/documents/${doc.id}`}
                  className={cn("truncate font-medium hover:underline", !doc.paciente_nome && "text-muted-foreground")}
                >
                  {patientOf(doc)}
                </Link>
                <DocumentStatusBadge status={doc.status} revogadoAt={doc.revogado_at} />
                <AwaitingProfessionalBadge doc={doc} />
                <FeegowUploadBadge upload={handlers.feegowUploads?.get(doc.id)} />
              </div>
              <span className="block text-xs text-muted-foreground tabular-nums">{doc.short_id}</span>
              <FeegowUploadNote upload={handlers.feegowUploads?.get(doc.id)} />
            </TableCell>
            <TableCell className="max-w-64">
              <span className="block truncate">{doc.procedimento ?? doc.titulo}</span>
              <span className="block truncate text-xs text-muted-foreground lg:hidden">{professionalOf(doc)}</span>
            </TableCell>
            <TableCell
              className={cn(
                "hidden max-w-56 truncate lg:table-cell",
                !doc.profissional_nome && "text-muted-foreground",
              )}
            >
              {professionalOf(doc)}
            </TableCell>
            <TableCell className="text-xs">
              <span className="block tabular-nums">Criado {formatDate(doc.created_at)}</span>
              <Expiry doc={doc} now={now} />
            </TableCell>
            <TableCell className="pr-4 text-right">
              <DocumentRowMenu doc={doc} handlers={handlers} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The list under 768 px: one card per document, actions in a bottom sheet. */
export function DocumentCards({
  documents,
  handlers,
}: {
  documents: DocumentSummary[];
  handlers: DocumentRowHandlers;
}) {
  const now = new Date();
  return (
    <ul className="grid grid-cols-1 divide-y" aria-label="Documentos" data-testid="documents-cards">
      {documents.map((doc) => (
        <li key={doc.id} className="grid gap-1.5 px-4 py-3" data-testid="document-card">
          <div className="flex items-start justify-between gap-2">
            <div className="grid min-w-0 flex-1 gap-1">
              <Link
                to={`/documents/${doc.id}`}
                className={cn("truncate font-medium hover:underline", !doc.paciente_nome && "text-muted-foreground")}
              >
                {patientOf(doc)}
              </Link>
              <div className="flex items-center gap-2">
                <DocumentStatusBadge status={doc.status} revogadoAt={doc.revogado_at} />
                <AwaitingProfessionalBadge doc={doc} />
                <span className="text-xs text-muted-foreground tabular-nums">{doc.short_id}</span>
                <FeegowUploadBadge upload={handlers.feegowUploads?.get(doc.id)} />
              </div>
            </div>
            <div className="-mt-1 -mr-2">
              <DocumentRowSheet doc={doc} handlers={handlers} />
            </div>
          </div>
          <FeegowUploadNote upload={handlers.feegowUploads?.get(doc.id)} />
          <p className="truncate text-sm">{doc.procedimento ?? doc.titulo}</p>
          <p
            className={cn(
              "truncate text-xs",
              doc.profissional_nome ? "text-muted-foreground" : "text-muted-foreground italic",
            )}
          >
            {professionalOf(doc)}
          </p>
          <p className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
            <span className="tabular-nums">Criado {formatDate(doc.created_at)}</span>
            <Expiry doc={doc} now={now} />
          </p>
        </li>
      ))}
    </ul>
  );
}
