import { BarChart3, Copy, Eye, History, MoreHorizontal, Pencil, Send, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
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
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { ApiError } from "@/lib/api";
import { useCurrentUser } from "@/features/auth";
import { profileCan } from "@shared/permissions";
import { TEMPLATE_MESSAGES, type TemplateSummary } from "@shared/schemas/template";
import { useDeleteTemplate, useDuplicateTemplate } from "../api/templates-api";

/**
 * The row's menu (spec part 2 §2 Templates list): Visualizar, Editar, Duplicar, Ver Histórico de
 * Versões, Ver Estatísticas de Uso, Excluir (confirmed; a template in use cannot be deleted).
 */
export function TemplateRowActions({ template, canWrite }: { template: TemplateSummary; canWrite: boolean }) {
  const duplicate = useDuplicateTemplate();
  const remove = useDeleteTemplate();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [blocked, setBlocked] = useState<string | null>(null);
  const base = `/templates/${template.id}`;
  const { data: user } = useCurrentUser();
  // Enviar em lote (decision 076): whoever may create and send documents, from a published template.
  const canSend = template.status === "published" && profileCan(user?.profile, "documents.write");

  async function onDuplicate() {
    try {
      const copy = await duplicate.mutateAsync(template.id);
      toast.success(TEMPLATE_MESSAGES.duplicated, { description: copy.titulo });
    } catch (error) {
      toast.error(TEMPLATE_MESSAGES.duplicateError, { description: errorMessage(error) });
    }
  }

  async function onDelete() {
    try {
      await remove.mutateAsync(template.id);
      setConfirmOpen(false);
      toast.success(TEMPLATE_MESSAGES.deleted);
    } catch (error) {
      setConfirmOpen(false);
      if (error instanceof ApiError && error.code === "TEMPLATE_IN_USE") {
        setBlocked(error.message);
        return;
      }
      toast.error(TEMPLATE_MESSAGES.deleteError, { description: errorMessage(error) });
    }
  }

  return (
    <>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" aria-label={`Ações de ${template.titulo}`} disabled={duplicate.isPending}>
            {duplicate.isPending ? <Spinner /> : <MoreHorizontal />}
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-60">
          <DropdownMenuItem asChild>
            <Link to={`${base}/preview`}>
              <Eye /> Visualizar
            </Link>
          </DropdownMenuItem>
          {canSend ? (
            <DropdownMenuItem asChild>
              <Link to={`/documents/bulk?template=${encodeURIComponent(template.id)}`}>
                <Send /> Enviar em lote
              </Link>
            </DropdownMenuItem>
          ) : null}
          {canWrite ? (
            <>
              <DropdownMenuItem asChild>
                <Link to={`${base}/edit`}>
                  <Pencil /> Editar
                </Link>
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => void onDuplicate()}>
                <Copy /> Duplicar
              </DropdownMenuItem>
            </>
          ) : null}
          <DropdownMenuItem asChild>
            <Link to={`${base}/versions`}>
              <History /> Ver Histórico de Versões
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link to={`${base}/statistics`}>
              <BarChart3 /> Ver Estatísticas de Uso
            </Link>
          </DropdownMenuItem>
          {canWrite ? (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem variant="destructive" onSelect={() => setConfirmOpen(true)}>
                <Trash2 /> Excluir
              </DropdownMenuItem>
            </>
          ) : null}
        </DropdownMenuContent>
      </DropdownMenu>

      <AlertDialog open={confirmOpen} onOpenChange={(open) => !remove.isPending && setConfirmOpen(open)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{TEMPLATE_MESSAGES.confirmDeleteTitle}</AlertDialogTitle>
            <AlertDialogDescription>
              Tem certeza que deseja excluir o template “{template.titulo}” e todas as suas versões? Esta ação não pode
              ser desfeita.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={remove.isPending}>Cancelar</AlertDialogCancel>
            <Button variant="destructive" onClick={() => void onDelete()} disabled={remove.isPending}>
              {remove.isPending ? <Spinner /> : null} Excluir
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>

      <AlertDialog open={blocked !== null} onOpenChange={(open) => !open && setBlocked(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{TEMPLATE_MESSAGES.deleteBlockedTitle}</AlertDialogTitle>
            <AlertDialogDescription>{blocked}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Entendi</AlertDialogCancel>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
