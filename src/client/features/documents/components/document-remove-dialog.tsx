import { useEffect, useId, useState } from "react";
import { toast } from "sonner";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { ApiError, errorMessage } from "@/lib/api";
import { DOCUMENT_MESSAGES, documentCancelInputSchema } from "@shared/schemas/document";
import { RETENTION_MESSAGES } from "@shared/retention/retention-rule";
import { useCancelDocument, useDeleteDocument } from "../api/documents-api";

export interface RemovalTarget {
  id: string;
  mode: "delete" | "cancel";
  /** What the user sees of the document ("#1a2b3c4d · Paciente"). */
  label: string;
}

/**
 * Excluir (drafts: asks for confirmation) or Cancelar (sent or viewed: asks the reason). The
 * caller keeps `target`; null closes the dialog.
 */
export function DocumentRemoveDialog({
  target,
  onClose,
  onDone,
}: {
  target: RemovalTarget | null;
  onClose: () => void;
  onDone?: (mode: "delete" | "cancel") => void;
}) {
  const remove = useDeleteDocument();
  const cancel = useCancelDocument();
  const [motivo, setMotivo] = useState("");
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();

  useEffect(() => {
    setMotivo("");
    setError(null);
  }, [target?.id, target?.mode]);

  const pending = remove.isPending || cancel.isPending;
  const close = (open: boolean) => {
    if (!open && !pending) onClose();
  };

  async function confirmDelete() {
    if (!target) return;
    try {
      await remove.mutateAsync(target.id);
      toast.success(DOCUMENT_MESSAGES.deleted);
      onClose();
      onDone?.("delete");
    } catch (err) {
      toast.error(DOCUMENT_MESSAGES.deleteError, { description: errorMessage(err) });
      onClose();
    }
  }

  async function confirmCancel() {
    if (!target) return;
    const parsed = documentCancelInputSchema.safeParse({ motivo });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? DOCUMENT_MESSAGES.cancelReasonRequired);
      return;
    }
    try {
      await cancel.mutateAsync({ id: target.id, motivo: parsed.data.motivo });
      toast.success(DOCUMENT_MESSAGES.cancelled);
      onClose();
      onDone?.("cancel");
    } catch (err) {
      if (err instanceof ApiError && err.issues.length > 0) {
        setError(err.issues[0]?.message ?? err.message);
        return;
      }
      toast.error(DOCUMENT_MESSAGES.cancelError, { description: errorMessage(err) });
      onClose();
    }
  }

  return (
    <>
      <AlertDialog open={target?.mode === "delete"} onOpenChange={close}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Excluir este documento?</AlertDialogTitle>
            <AlertDialogDescription>
              {target?.label ? `${target.label}. ` : ""}O documento será removido. Esta ação não pode ser desfeita.
            </AlertDialogDescription>
            <p
              className="text-sm text-muted-foreground"
              data-testid="retention-rule"
            >{`${RETENTION_MESSAGES.rule} ${RETENTION_MESSAGES.deletable}`}</p>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={pending}>Voltar</AlertDialogCancel>
            <Button variant="destructive" onClick={() => void confirmDelete()} disabled={pending}>
              {pending ? <Spinner /> : null} Excluir
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>

      <Dialog open={target?.mode === "cancel"} onOpenChange={close}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Cancelar documento</DialogTitle>
            <DialogDescription>
              {target?.label ? `${target.label}. ` : ""}O link de assinatura deixa de valer. Informe o motivo: ele fica
              no histórico do documento.
            </DialogDescription>
          </DialogHeader>
          <form
            className="grid gap-4"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void confirmCancel();
            }}
          >
            <FormField label="Motivo do cancelamento" htmlFor={fieldId} required error={error ?? undefined}>
              <Textarea
                value={motivo}
                maxLength={500}
                rows={3}
                onChange={(event) => {
                  setMotivo(event.target.value);
                  setError(null);
                }}
              />
            </FormField>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => close(false)} disabled={pending}>
                Voltar
              </Button>
              <Button type="submit" variant="destructive" disabled={pending}>
                {pending ? <Spinner /> : null} Cancelar documento
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
