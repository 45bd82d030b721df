import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type { Patient, PatientInput, PatientList, PatientListQuery, PatientStats } from "@shared/schemas/patient";
import { patientListQueryString } from "../lib/list-params";

export const patientKeys = {
  all: ["patients"] as const,
  lists: () => [...patientKeys.all, "list"] as const,
  list: (query: PatientListQuery) => [...patientKeys.lists(), query] as const,
  stats: () => [...patientKeys.all, "stats"] as const,
  detail: (id: string) => [...patientKeys.all, "detail", id] as const,
};

/** 4xx answers are final; only network and server errors are worth retrying. */
const retryUnlessClientError = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2;

/** One page of the clinic's patients (keyset paging: pass next_cursor back as `cursor`). */
export function usePatients(query: PatientListQuery) {
  return useQuery({
    queryKey: patientKeys.list(query),
    queryFn: ({ signal }) => {
      const qs = patientListQueryString(query);
      return api<PatientList>(`/api/patients${qs ? `?${qs}` : ""}`, { signal });
    },
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
}

export function usePatientStats() {
  return useQuery({
    queryKey: patientKeys.stats(),
    queryFn: ({ signal }) => api<PatientStats>("/api/patients/stats", { signal }),
    retry: retryUnlessClientError,
  });
}

export function usePatient(id: string | undefined) {
  return useQuery({
    queryKey: patientKeys.detail(id ?? ""),
    queryFn: ({ signal }) => api<Patient>(`/api/patients/${encodeURIComponent(id ?? "")}`, { signal }),
    enabled: Boolean(id),
    retry: retryUnlessClientError,
  });
}

/** The patient that already holds the CPF, when `error` is a PATIENT_CPF_TAKEN answer. */
export function cpfTakenBy(error: unknown): { patient_id: string; nome: string } | null {
  if (!(error instanceof ApiError) || error.code !== "PATIENT_CPF_TAKEN") return null;
  const id = error.details.patient_id;
  const nome = error.details.nome;
  return typeof id === "string" && id ? { patient_id: id, nome: typeof nome === "string" ? nome : "" } : null;
}

export function useCreatePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PatientInput) => api<Patient>("/api/patients", { method: "POST", body: input }),
    onSuccess: (patient) => {
      queryClient.setQueryData(patientKeys.detail(patient.id), patient);
      void queryClient.invalidateQueries({ queryKey: patientKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: patientKeys.stats() });
    },
  });
}

export function useUpdatePatient(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PatientInput) =>
      api<Patient>(`/api/patients/${encodeURIComponent(id)}`, { method: "PUT", body: input }),
    onSuccess: (patient) => {
      queryClient.setQueryData(patientKeys.detail(patient.id), patient);
      void queryClient.invalidateQueries({ queryKey: patientKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: patientKeys.stats() });
    },
  });
}

export function useDeletePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/patients/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: (_data, id) => {
      queryClient.removeQueries({ queryKey: patientKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: patientKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: patientKeys.stats() });
    },
  });
}
