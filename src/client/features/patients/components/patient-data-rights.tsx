import { FileArchive, ShieldAlert, UserX } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
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
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/features/auth";
import { ApiError, errorMessage } from "@/lib/api";
import { profileCan } from "@shared/permissions";
import { RETENTION_MESSAGES } from "@shared/retention/retention-rule";
import { ANONYMIZE_CONFIRMATION, DATA_RIGHTS_MESSAGES } from "@shared/schemas/data-rights";
import { patientExportUrl, useAnonymizePatient } from "../api/data-rights-api";

/**
 * The patient's rights on their page (LGPD art. 18; decision 026), for the owner and
 * administrators: the export ZIP (a plain link, streamed to disk) and anonymization.
 */
export function PatientDataRights({ id, nome }: { id: string; nome: string }) {
  const { data: user } = useCurrentUser();
  const canExport = profileCan(user?.profile, "patients.exportData");
  const canAnonymize = profileCan(user?.profile, "patients.anonymize");
  if (!canExport && !canAnonymize) return null;
  return (
    <Card className="gap-4" data-testid="patient-data-rights">
      <CardHeader>
        <CardTitle>
          <h2>Dados pessoais (LGPD)</h2>
        </CardTitle>
        <CardDescription>
          Direitos do paciente: acesso e portabilidade dos dados (art. 18, II e V) e anonimização (art. 18, IV).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <p className="text-sm text-muted-foreground">{DATA_RIGHTS_MESSAGES.exportPatientHint}</p>
        <div className="flex flex-wrap gap-2">
          {canExport ? (
            <Button asChild variant="outline">
              <a href={patientExportUrl(id)} download onClick={() => toast.success(DATA_RIGHTS_MESSAGES.exportStarted)}>
                <FileArchive /> {DATA_RIGHTS_MESSAGES.exportPatient}
              </a>
            </Button>
          ) : null}
          {canAnonymize && nome !== "Paciente anonimizado" ? <AnonymizeDialog id={id} nome={nome} /> : null}
        </div>
        <p className="text-xs text-muted-foreground" data-testid="retention-rule">
          {RETENTION_MESSAGES.rule}
        </p>
      </CardContent>
    </Card>
  );
}

function AnonymizeDialog({ id, nome }: { id: string; nome: string }) {
  const anonymize = useAnonymizePatient();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [refusal, setRefusal] = useState<string | null>(null);
  const fieldId = useId();
  const confirmed = typed.trim().toUpperCase() === ANONYMIZE_CONFIRMATION;

  function change(next: boolean) {
    if (anonymize.isPending) return;
    setOpen(next);
    if (!next) {
      setTyped("");
      setRefusal(null);
    }
  }

  async function confirm() {
    try {
      await anonymize.mutateAsync({ id, confirmacao: typed });
      toast.success(DATA_RIGHTS_MESSAGES.anonymized);
      change(false);
    } catch (error) {
      // Retention or pending documents: the server explains; the dialog keeps the explanation.
      if (error instanceof ApiError && error.status === 409) setRefusal(error.message);
      else toast.error(DATA_RIGHTS_MESSAGES.anonymizeError, { description: errorMessage(error) });
    }
  }

  return (
    <AlertDialog open={open} onOpenChange={change}>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" className="text-destructive hover:bg-destructive/10 hover:text-destructive">
          <UserX /> {DATA_RIGHTS_MESSAGES.anonymize}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{DATA_RIGHTS_MESSAGES.anonymizeTitle}</AlertDialogTitle>
          <AlertDialogDescription>
            Os dados pessoais de {nome} serão apagados de forma <strong>irreversível</strong>: o nome passa a ser
            “Paciente anonimizado” e CPF, data de nascimento, sexo, telefone, e-mail, endereço e responsável deixam de
            existir. Rascunhos e documentos cancelados ou expirados deste paciente são excluídos. A trilha de auditoria
            continua registrando que a anonimização foi feita, e por quem.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <p className="text-sm text-muted-foreground">
          {RETENTION_MESSAGES.rule} Pacientes com documentos assinados não podem ser anonimizados.
        </p>
        {refusal ? (
          <Alert variant="destructive" role="alert" data-testid="anonymize-refusal">
            <ShieldAlert />
            <AlertTitle>Anonimização recusada</AlertTitle>
            <AlertDescription>{refusal}</AlertDescription>
          </Alert>
        ) : (
          <FormField label={`Digite ${ANONYMIZE_CONFIRMATION} para confirmar`} htmlFor={fieldId} required>
            <Input
              value={typed}
              autoComplete="off"
              onChange={(event) => setTyped(event.target.value)}
              disabled={anonymize.isPending}
            />
          </FormField>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={anonymize.isPending}>{refusal ? "Fechar" : "Cancelar"}</AlertDialogCancel>
          {refusal ? null : (
            <Button variant="destructive" onClick={() => void confirm()} disabled={!confirmed || anonymize.isPending}>
              {anonymize.isPending ? <Spinner /> : null} {DATA_RIGHTS_MESSAGES.anonymizeConfirm}
            </Button>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
