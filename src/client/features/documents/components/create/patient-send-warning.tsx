import { usePatient } from "@/features/patients";
import { todayInSaoPaulo } from "@/features/patients";
import { patientSendProblems } from "@shared/send-readiness";
import { SendProblemsAlert } from "../send-problems-alert";

/**
 * Novo documento: before the document exists, says whether it could be sent for signature — the
 * rule the server applies when sending (no CPF, a minor without guardian: blocked; neither e-mail
 * nor phone: a warning) — with "Completar cadastro", which comes back here with the patient chosen.
 */
export function PatientSendWarning({ patientId }: { patientId: string }) {
  const patient = usePatient(patientId || undefined);
  if (!patientId || !patient.data) return null;
  const problems = patientSendProblems(patient.data, todayInSaoPaulo());
  if (problems.length === 0) return null;
  return (
    <div className="grid gap-2 sm:col-span-2" data-testid="patient-send-warning">
      <SendProblemsAlert
        problems={problems}
        patientId={patient.data.id}
        returnTo={`/documents/create?paciente=${encodeURIComponent(patient.data.id)}`}
        blockingTitle="Com este cadastro, o documento não poderá ser enviado para assinatura"
      />
    </div>
  );
}
