import { Lock, Users } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatCentavos } from "@shared/br/money";
import { procedureSpecialtyName } from "@shared/reference/procedure-specialties";
import { type Procedure, PROCEDURE_MESSAGES } from "@shared/schemas/procedure";
import { ProcedureRowActions } from "./procedure-row-actions";

const DASH = <span className="text-muted-foreground">—</span>;

interface ListProps {
  procedures: Procedure[];
  canEdit: boolean;
  onEdit: (procedure: Procedure) => void;
  /** The signed-in user's profile id, to say "Criado por você". */
  myId: string | undefined;
}

export function PrivacyBadge({ isPrivate }: { isPrivate: boolean }) {
  return isPrivate ? (
    <Badge variant="secondary">
      <Lock /> {PROCEDURE_MESSAGES.privateLabel}
    </Badge>
  ) : (
    <Badge variant="outline">
      <Users /> {PROCEDURE_MESSAGES.sharedLabel}
    </Badge>
  );
}

/** The list at 768 px and wider. */
export function ProcedureTable({ procedures, canEdit, onEdit, myId }: ListProps) {
  return (
    <Table aria-label="Procedimentos" data-testid="procedures-table">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead className="pl-4">Procedimento</TableHead>
          <TableHead className="hidden lg:table-cell">Especialidade</TableHead>
          <TableHead className="text-right">Valor</TableHead>
          <TableHead>Visibilidade</TableHead>
          <TableHead className="pr-4">
            <span className="sr-only">Ações</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {procedures.map((procedure) => (
          <TableRow key={procedure.id} data-testid="procedure-row">
            <TableCell className="max-w-96 py-3 pl-4 whitespace-normal">
              <span className="block truncate font-medium">{procedure.nome}</span>
              <span className="line-clamp-2 text-xs text-muted-foreground">
                {procedure.descricao ?? "Sem descrição"}
              </span>
              <span className="block text-xs text-muted-foreground lg:hidden">
                {procedureSpecialtyName(procedure.especialidade) ?? ""}
              </span>
            </TableCell>
            <TableCell className="hidden lg:table-cell">
              {procedureSpecialtyName(procedure.especialidade) ?? DASH}
            </TableCell>
            <TableCell className="text-right tabular-nums" data-testid="procedure-price">
              {procedure.valor_centavos != null ? formatCentavos(procedure.valor_centavos) : DASH}
            </TableCell>
            <TableCell>
              <div className="grid gap-1">
                <PrivacyBadge isPrivate={procedure.is_private} />
                {myId && procedure.created_by === myId ? (
                  <span className="text-xs text-muted-foreground">Criado por você</span>
                ) : null}
              </div>
            </TableCell>
            <TableCell className="pr-4 text-right">
              <ProcedureRowActions procedure={procedure} canEdit={canEdit} onEdit={onEdit} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The list under 768 px: one card per procedure. */
export function ProcedureCards({ procedures, canEdit, onEdit, myId }: ListProps) {
  return (
    <ul className="grid grid-cols-1 divide-y" aria-label="Procedimentos" data-testid="procedures-cards">
      {procedures.map((procedure) => (
        <li key={procedure.id} className="grid gap-2 px-4 py-3" data-testid="procedure-card">
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium">{procedure.nome}</p>
              <p className="text-xs text-muted-foreground">
                {procedureSpecialtyName(procedure.especialidade) ?? "Sem especialidade"}
                {myId && procedure.created_by === myId ? " · Criado por você" : ""}
              </p>
            </div>
            <PrivacyBadge isPrivate={procedure.is_private} />
          </div>
          {procedure.descricao ? (
            <p className="line-clamp-3 text-sm text-muted-foreground">{procedure.descricao}</p>
          ) : null}
          {procedure.valor_centavos != null ? (
            <p className="text-sm tabular-nums" data-testid="procedure-price">
              Valor: {formatCentavos(procedure.valor_centavos)}
            </p>
          ) : null}
          <ProcedureRowActions procedure={procedure} canEdit={canEdit} onEdit={onEdit} />
        </li>
      ))}
    </ul>
  );
}
