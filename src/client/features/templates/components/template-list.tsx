import { CalendarDays, User } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { TemplateSummary } from "@shared/schemas/template";
import { formatDate, usageLabel, versionLabel } from "../lib/format";
import { TemplateRowActions } from "./template-row-actions";
import { TemplateStatusBadge } from "./template-status-badge";

interface ListProps {
  templates: TemplateSummary[];
  canWrite: boolean;
}

/** The list at 768 px and wider. */
export function TemplateTable({ templates, canWrite }: ListProps) {
  return (
    <Table aria-label="Templates" data-testid="templates-table">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead className="pl-4">Template</TableHead>
          <TableHead>Categoria</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="hidden lg:table-cell">Criado por</TableHead>
          <TableHead>Versão</TableHead>
          <TableHead className="hidden lg:table-cell">Criado em</TableHead>
          <TableHead className="hidden xl:table-cell">Uso</TableHead>
          <TableHead className="w-12 pr-4">
            <span className="sr-only">Ações</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {templates.map((template) => (
          <TableRow key={template.id} data-testid="template-row">
            <TableCell className="max-w-80 py-3 pl-4">
              <Link to={`/templates/${template.id}/preview`} className="block truncate font-medium hover:underline">
                {template.titulo}
              </Link>
              <span className="block truncate text-xs text-muted-foreground">{template.especialidade}</span>
              <span className="block text-xs text-muted-foreground xl:hidden">{usageLabel(template.usos)}</span>
            </TableCell>
            <TableCell>
              <Badge variant="outline">{template.categoria}</Badge>
            </TableCell>
            <TableCell>
              <TemplateStatusBadge status={template.status} />
            </TableCell>
            <TableCell className="hidden max-w-48 truncate lg:table-cell">{template.criador_nome ?? "—"}</TableCell>
            <TableCell className="tabular-nums">{versionLabel(template.versao_atual)}</TableCell>
            <TableCell className="hidden tabular-nums lg:table-cell">{formatDate(template.created_at)}</TableCell>
            <TableCell className="hidden text-muted-foreground xl:table-cell">{usageLabel(template.usos)}</TableCell>
            <TableCell className="pr-4 text-right">
              <TemplateRowActions template={template} canWrite={canWrite} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The list under 768 px: one stacked card per template. */
export function TemplateCards({ templates, canWrite }: ListProps) {
  return (
    <ul className="grid grid-cols-1 divide-y" aria-label="Templates" data-testid="templates-cards">
      {templates.map((template) => (
        <li key={template.id} className="grid grid-cols-1 gap-2 px-4 py-3" data-testid="template-card">
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0 flex-1">
              <Link to={`/templates/${template.id}/preview`} className="block font-medium break-words hover:underline">
                {template.titulo}
              </Link>
              <p className="truncate text-xs text-muted-foreground">{template.especialidade}</p>
            </div>
            <div className="-mt-1 -mr-2">
              <TemplateRowActions template={template} canWrite={canWrite} />
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-1.5">
            <TemplateStatusBadge status={template.status} />
            <Badge variant="outline">{template.categoria}</Badge>
            <Badge variant="outline" className="tabular-nums">
              {versionLabel(template.versao_atual)}
            </Badge>
          </div>
          <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground [&_svg]:size-3.5">
            <span className="flex min-w-0 items-center gap-1">
              <User aria-hidden />
              <span className="sr-only">Criado por</span>
              <span className="truncate">{template.criador_nome ?? "—"}</span>
            </span>
            <span className="flex items-center gap-1 tabular-nums">
              <CalendarDays aria-hidden />
              <span className="sr-only">Criado em</span>
              {formatDate(template.created_at)}
            </span>
            <span>{usageLabel(template.usos)}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}
