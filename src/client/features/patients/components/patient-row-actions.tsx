import { Eye, FilePlus2, FileText, MoreHorizontal, Pencil } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

/** The row's menu (spec part 1 §2): Ver Detalhes, Editar Paciente, Ver Contratos, Novo Contrato. */
export function PatientRowActions({ id, nome, canEdit }: { id: string; nome: string; canEdit: boolean }) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Ações de ${nome}`}>
          <MoreHorizontal />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-48">
        <DropdownMenuItem asChild>
          <Link to={`/patients/${id}`}>
            <Eye /> Ver Detalhes
          </Link>
        </DropdownMenuItem>
        {canEdit ? (
          <DropdownMenuItem asChild>
            <Link to={`/patients/${id}/edit`}>
              <Pencil /> Editar Paciente
            </Link>
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem asChild>
          <Link to={`/documents?paciente=${encodeURIComponent(id)}`}>
            <FileText /> Ver Contratos
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to={`/documents/create?paciente=${encodeURIComponent(id)}`}>
            <FilePlus2 /> Novo Contrato
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
