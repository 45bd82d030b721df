import { ImageUp, Trash2 } from "lucide-react";
import { useId, useRef, useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { LOGO_ACCEPT, LOGO_MESSAGES, logoFileProblem } from "@shared/clinic-logo";
import { useClinicLogo, useRemoveClinicLogo, useUploadClinicLogo } from "../api/settings-api";

/**
 * Configurações → Logo: PNG, JPEG or SVG up to 1 MB. The server keeps its own PNG
 * re-encoding, drawn on the header of the PDFs made from now on and on the signing page.
 */
export function ClinicLogoCard() {
  const logo = useClinicLogo();
  const upload = useUploadClinicLogo();
  const remove = useRemoveClinicLogo();
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const current = logo.data?.logo ?? null;

  async function choose(file: File | undefined) {
    if (inputRef.current) inputRef.current.value = "";
    if (!file) return;
    const localProblem = logoFileProblem(file);
    setProblem(localProblem);
    if (localProblem) return;
    try {
      await upload.mutateAsync(file);
      toast.success(LOGO_MESSAGES.saved);
    } catch (error) {
      const message = errorMessage(error);
      setProblem(message);
      toast.error(LOGO_MESSAGES.saveError(message));
    }
  }

  async function confirmRemoval() {
    try {
      await remove.mutateAsync();
      setConfirming(false);
      setProblem(null);
      toast.success(LOGO_MESSAGES.removed);
    } catch (error) {
      toast.error(LOGO_MESSAGES.removeError(errorMessage(error)));
    }
  }

  return (
    <Card className="max-w-3xl" data-testid="clinic-logo">
      <CardHeader>
        <CardTitle className="text-base">Logo</CardTitle>
        <CardDescription>
          Aparece no cabeçalho dos PDFs gerados a partir de agora e na página de assinatura do paciente.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {logo.isPending ? (
          <Skeleton className="h-20 w-48" />
        ) : logo.isError ? (
          <p className="text-sm text-destructive">Não foi possível carregar o logo.</p>
        ) : (
          <div className="flex flex-wrap items-center gap-4">
            <div className="flex h-20 w-48 items-center justify-center rounded-md border bg-white p-2">
              {current ? (
                <img
                  src={current.url}
                  alt="Logo atual da clínica"
                  className="max-h-full max-w-full object-contain"
                  data-testid="clinic-logo-preview"
                />
              ) : (
                <span className="text-center text-xs text-muted-foreground">Nenhum logo enviado</span>
              )}
            </div>
            <div className="grid gap-2">
              <input
                ref={inputRef}
                id={inputId}
                type="file"
                accept={LOGO_ACCEPT}
                className="sr-only"
                aria-label="Arquivo do logo da clínica"
                aria-describedby={`${inputId}-help`}
                onChange={(event) => void choose(event.target.files?.[0])}
                data-testid="clinic-logo-input"
              />
              <div className="flex flex-wrap gap-2">
                <Button
                  type="button"
                  variant="outline"
                  disabled={upload.isPending}
                  onClick={() => inputRef.current?.click()}
                >
                  {upload.isPending ? <Spinner /> : <ImageUp aria-hidden />} {current ? "Trocar logo" : "Enviar logo"}
                </Button>
                {current ? (
                  <Button type="button" variant="ghost" disabled={remove.isPending} onClick={() => setConfirming(true)}>
                    <Trash2 aria-hidden /> Remover
                  </Button>
                ) : null}
              </div>
              <p id={`${inputId}-help`} className="text-xs text-muted-foreground">
                PNG, JPEG ou SVG, até 1 MB. Fundos transparentes ficam brancos.
              </p>
            </div>
          </div>
        )}
        {problem ? (
          <p role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        ) : null}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remover o logo?"
        description="Os PDFs gerados a partir de agora e a página de assinatura mostram só o nome da clínica. Os PDFs já assinados não mudam."
        confirmLabel="Remover"
        pending={remove.isPending}
        onConfirm={() => void confirmRemoval()}
      />
    </Card>
  );
}
