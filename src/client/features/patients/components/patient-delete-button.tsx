import { Trash2 } from "lucide-react";
import { useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import { useDeletePatient } from "../api/patients-api";
import { errorMessage } from "@/lib/api";
import { RETENTION_MESSAGES } from "@shared/retention/retention-rule";

/** Excluir, with a confirmation (owners and administrators only: the caller decides to show it). */
export function PatientDeleteButton({ id, nome, className }: { id: string; nome: string; className?: string }) {
  const navigate = useNavigate();
  const remove = useDeletePatient();
  const [open, setOpen] = useState(false);

  async function confirm() {
    try {
      await remove.mutateAsync(id);
      setOpen(false);
      toast.success("Paciente excluído");
      navigate("/patients", { replace: true });
    } catch (error) {
      toast.error("Erro ao excluir paciente", { description: errorMessage(error) });
    }
  }

  return (
    <AlertDialog open={open} onOpenChange={(next) => !remove.isPending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button
          variant="ghost"
          className={cn("text-destructive hover:bg-destructive/10 hover:text-destructive", className)}
        >
          <Trash2 /> Excluir
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Excluir paciente?</AlertDialogTitle>
          <AlertDialogDescription>
            O cadastro de {nome} será excluído da clínica. Esta ação não pode ser desfeita.
          </AlertDialogDescription>
          <p className="text-sm text-muted-foreground">
            {RETENTION_MESSAGES.rule} Pacientes com documentos não podem ser excluídos.
          </p>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>Cancelar</AlertDialogCancel>
          {/* A plain button: the dialog must stay open while the request runs. */}
          <Button variant="destructive" onClick={() => void confirm()} disabled={remove.isPending}>
            {remove.isPending ? <Spinner /> : null} Excluir paciente
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
