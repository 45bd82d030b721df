import { Unplug } from "lucide-react";
import { useState } from "react";
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
import { errorMessage } from "@/lib/api";
import { FEEGOW_IMPORT_MESSAGES, FEEGOW_MESSAGES } from "@shared/schemas/feegow";
import { useRemoveFeegowToken } from "../api/feegow-imports-api";

/** "Remover token", with a confirmation: the token is forgotten, the status disconnected and every switch off. */
export function RemoveTokenButton() {
  const remove = useRemoveFeegowToken();
  const [open, setOpen] = useState(false);

  async function confirm() {
    try {
      await remove.mutateAsync();
      setOpen(false);
      toast.success(FEEGOW_IMPORT_MESSAGES.tokenRemoved, { description: FEEGOW_IMPORT_MESSAGES.tokenRemovedDetail });
    } catch (error) {
      toast.error(FEEGOW_MESSAGES.saveError(errorMessage(error)));
    }
  }

  return (
    <AlertDialog open={open} onOpenChange={(next) => !remove.isPending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button
          type="button"
          variant="ghost"
          className="text-destructive hover:bg-destructive/10 hover:text-destructive"
        >
          <Unplug /> Remover token
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Remover o token do Feegow?</AlertDialogTitle>
          <AlertDialogDescription>
            A integração fica desconectada e todas as funcionalidades são desligadas. Envios de PDF ainda na fila não
            serão feitos (os PDFs continuam salvos no Consentir). Para voltar a usar, salve um token e teste a conexão.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>Cancelar</AlertDialogCancel>
          <Button variant="destructive" onClick={() => void confirm()} disabled={remove.isPending}>
            {remove.isPending ? <Spinner /> : null} Remover token
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
