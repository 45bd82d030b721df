import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { Patient } from "@shared/schemas/patient";
import { patientKeys } from "./patients-api";

/** The ZIP of a patient's data: a plain link, so the browser streams it to disk (decision 026). */
export const patientExportUrl = (id: string) => `/api/patients/${encodeURIComponent(id)}/export`;

/** Anonymizes the patient (irreversible); the word the person typed travels with the request. */
export function useAnonymizePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirmacao }: { id: string; confirmacao: string }) =>
      api<Patient>(`/api/patients/${encodeURIComponent(id)}/anonymize`, { method: "POST", body: { confirmacao } }),
    onSuccess: (patient) => {
      queryClient.setQueryData(patientKeys.detail(patient.id), patient);
      void queryClient.invalidateQueries({ queryKey: patientKeys.all });
      void queryClient.invalidateQueries({ queryKey: ["documents"] });
    },
  });
}
