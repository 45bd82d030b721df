import { Lock, TabletSmartphone } from "lucide-react";
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
import { errorMessage } from "@/lib/api";
import { useStartFrontDesk } from "../api/front-desk-api";

export interface HandOverTarget {
  id: string;
  titulo: string;
  paciente: string | null;
}

/**
 * "Assinar neste aparelho": says what happens (the system locks until the staff member's password),
 * then opens the patient's signing page in this tab. The lock is on the server: until unlocked,
 * nothing of the clinic answers on this device, whatever the patient taps.
 */
export function HandOverDialog({
  target,
  onOpenChange,
}: {
  target: HandOverTarget | null;
  onOpenChange: (open: boolean) => void;
}) {
  const start = useStartFrontDesk();
  const handOver = async () => {
    if (!target) return;
    try {
      const { caminho } = await start.mutateAsync(target.id);
      window.location.assign(caminho);
    } catch (error) {
      toast.error("Não foi possível iniciar a assinatura neste aparelho", { description: errorMessage(error) });
    }
  };
  return (
    <AlertDialog open={target !== null} onOpenChange={(open) => !start.isPending && onOpenChange(open)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Assinar neste aparelho</AlertDialogTitle>
          <AlertDialogDescription>
            {target?.paciente
              ? `${target.paciente} vai ler e assinar “${target.titulo}” aqui.`
              : `O paciente vai ler e assinar “${target?.titulo ?? ""}” aqui.`}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <ul className="grid gap-2 text-sm">
          <li className="flex gap-2">
            <Lock className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
            <span>
              O sistema fica bloqueado neste aparelho: nada da clínica aparece até alguém da equipe digitar a própria
              senha.
            </span>
          </li>
          <li className="flex gap-2">
            <TabletSmartphone className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
            <span>A assinatura fica registrada como presencial, feita no seu aparelho, em seu nome.</span>
          </li>
        </ul>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={start.isPending}>Cancelar</AlertDialogCancel>
          <Button onClick={() => void handOver()} disabled={start.isPending}>
            {start.isPending ? "Abrindo…" : "Entregar ao paciente"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
