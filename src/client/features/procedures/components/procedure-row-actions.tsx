import { Link2, Pencil } from "lucide-react";
import { Link } from "react-router";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/api";
import { type Procedure, PROCEDURE_MESSAGES } from "@shared/schemas/procedure";
import { useDeleteProcedure } from "../api/procedures-api";
import { ConfirmDeleteButton } from "./confirm-delete-button";

/** Associar conteúdo for everyone; Editar and Excluir for the roles that may write. */
export function ProcedureRowActions({
  procedure,
  canEdit,
  onEdit,
}: {
  procedure: Procedure;
  canEdit: boolean;
  onEdit: (procedure: Procedure) => void;
}) {
  const remove = useDeleteProcedure();
  return (
    <div className="flex items-center justify-end gap-1">
      <Button variant="outline" size="sm" asChild>
        <Link to={`/procedures/associations?procedimento=${encodeURIComponent(procedure.id)}`}>
          <Link2 /> Associar conteúdo
        </Link>
      </Button>
      {canEdit ? (
        <>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Editar ${procedure.nome}`}
            title="Editar"
            onClick={() => onEdit(procedure)}
          >
            <Pencil />
          </Button>
          <ConfirmDeleteButton
            label={`Excluir ${procedure.nome}`}
            question={PROCEDURE_MESSAGES.confirmDelete}
            description={`"${procedure.nome}" e suas associações serão excluídos. Esta ação não pode ser desfeita.`}
            onConfirm={async () => {
              try {
                await remove.mutateAsync(procedure.id);
                toast.success(PROCEDURE_MESSAGES.deleted);
              } catch (error) {
                toast.error(PROCEDURE_MESSAGES.deleteError, { description: errorMessage(error) });
              }
            }}
          />
        </>
      ) : null}
    </div>
  );
}
