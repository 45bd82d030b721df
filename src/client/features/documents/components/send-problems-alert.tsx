import { AlertTriangle, OctagonX, UserPen } from "lucide-react";
import { Link } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { patientEditLink } from "../lib/patient-edit-link";

export interface ShownSendProblem {
  code: string;
  message: string;
  blocking: boolean;
}

/** Problems fixed on the patient's record (the others — the professional's declaration — are not). */
const PATIENT_PROBLEMS = new Set(["PATIENT_CPF_MISSING", "GUARDIAN_MISSING", "PATIENT_CONTACT_MISSING"]);

/**
 * What stands between a document and its signature, said where the user is (Novo documento, the
 * send dialog): blocking problems in red, warnings in amber, each with "Completar cadastro" when
 * the patient's record is what is missing.
 */
export function SendProblemsAlert({
  problems,
  patientId,
  returnTo,
  blockingTitle = "Este documento não poderá ser enviado para assinatura",
  onNavigate,
}: {
  problems: readonly ShownSendProblem[];
  patientId: string | null;
  /** Where the patient form comes back to after saving. */
  returnTo?: string;
  blockingTitle?: string;
  onNavigate?: () => void;
}) {
  const blocking = problems.filter((problem) => problem.blocking);
  const warnings = problems.filter((problem) => !problem.blocking);
  const fix = (list: readonly ShownSendProblem[]) =>
    patientId && list.some((problem) => PATIENT_PROBLEMS.has(problem.code)) ? (
      <Link
        to={patientEditLink(patientId, returnTo)}
        onClick={onNavigate}
        className="inline-flex w-fit items-center gap-1 font-medium text-foreground underline underline-offset-4 hover:text-primary"
        data-testid="complete-patient-record"
      >
        <UserPen className="size-4" aria-hidden /> Completar cadastro
      </Link>
    ) : null;
  return (
    <>
      {blocking.length > 0 ? (
        <Alert variant="destructive" data-testid="send-blocking">
          <OctagonX />
          <AlertTitle className="line-clamp-none">{blockingTitle}</AlertTitle>
          <AlertDescription className="grid gap-2">
            <ul className="grid gap-1">
              {blocking.map((problem) => (
                <li key={problem.code}>{problem.message}</li>
              ))}
            </ul>
            {fix(blocking)}
          </AlertDescription>
        </Alert>
      ) : null}
      {warnings.length > 0 ? (
        <Alert
          className="border-amber-500/50 bg-amber-50 text-amber-900 dark:bg-amber-950/40 dark:text-amber-200"
          data-testid="send-warning"
        >
          <AlertTriangle />
          <AlertTitle>Atenção ao enviar</AlertTitle>
          <AlertDescription className="grid gap-2 text-amber-900 dark:text-amber-200">
            <ul className="grid gap-1">
              {warnings.map((problem) => (
                <li key={problem.code}>{problem.message}</li>
              ))}
            </ul>
            {blocking.length === 0 ? fix(warnings) : null}
          </AlertDescription>
        </Alert>
      ) : null}
    </>
  );
}
