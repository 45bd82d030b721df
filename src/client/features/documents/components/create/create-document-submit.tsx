import { Link } from "react-router";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { SubmitButton } from "@/components/form/submit-button";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { UnresolvedList } from "../document-live-preview";

/** The end of the form: unresolved variables, "Criar mesmo assim", the form's error, Cancelar / Criar Documento. */
export function CreateDocumentSubmit({
  unresolved,
  allowPending,
  onAllowPending,
  allowError,
  askAudio,
  onAskAudio,
  formError,
  pending,
}: {
  unresolved: string[];
  allowPending: boolean;
  onAllowPending: (allowed: boolean) => void;
  allowError: string | null;
  askAudio: boolean;
  onAskAudio: (ask: boolean) => void;
  formError: string | null;
  pending: boolean;
}) {
  return (
    <div className="grid gap-3">
      <div className="grid gap-1 rounded-md border p-3">
        <div className="flex items-center gap-2">
          <Checkbox
            id="doc-pedir-audio"
            checked={askAudio}
            onCheckedChange={(checked) => onAskAudio(checked === true)}
            aria-describedby="doc-pedir-audio-hint"
            data-testid="ask-audio"
          />
          <Label htmlFor="doc-pedir-audio">Pedir que o paciente grave o aceite em áudio</Label>
        </div>
        <p id="doc-pedir-audio-hint" className="text-xs text-muted-foreground">
          Na página de assinatura, o paciente lê em voz alta uma frase de aceite e grava (até 3 minutos). Útil em
          teleconsulta. Vem marcado quando o template pede o áudio, e pode ser desmarcado. Se o aparelho não tiver
          microfone, ele ainda pode assinar; o registro mostra que o áudio não foi gravado.
        </p>
      </div>
      <UnresolvedList names={unresolved} />
      {unresolved.length > 0 ? (
        <div className="grid gap-1">
          <div className="flex items-center gap-2">
            <Checkbox
              id="doc-permitir"
              checked={allowPending}
              onCheckedChange={(checked) => onAllowPending(checked === true)}
              aria-describedby={allowError ? "doc-permitir-error" : undefined}
            />
            <Label htmlFor="doc-permitir">Criar mesmo assim</Label>
          </div>
          {allowError ? (
            <p id="doc-permitir-error" className="text-sm font-medium text-destructive" role="alert">
              {allowError}
            </p>
          ) : null}
        </div>
      ) : null}
      <FormErrorAlert message={formError} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" asChild>
          <Link to="/documents">Cancelar</Link>
        </Button>
        <SubmitButton pending={pending}>Criar Documento</SubmitButton>
      </div>
    </div>
  );
}
