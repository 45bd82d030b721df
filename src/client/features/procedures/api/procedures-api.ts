import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type {
  Procedure,
  ProcedureAssociations,
  ProcedureAssociationsInput,
  ProcedureInput,
  ProcedureList,
} from "@shared/schemas/procedure";

export const procedureKeys = {
  all: ["procedures"] as const,
  lists: () => [...procedureKeys.all, "list"] as const,
  list: (q: string) => [...procedureKeys.lists(), q] as const,
  associations: (id: string) => [...procedureKeys.all, "associations", id] as const,
};

/** 4xx answers are final; only network and server errors are worth retrying. */
export const retryUnlessClientError = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2;

/** The procedures the user sees (shared ones and their own private ones), by name. */
export function useProcedures(q: string) {
  return useQuery({
    queryKey: procedureKeys.list(q),
    queryFn: ({ signal }) => api<ProcedureList>(`/api/procedures${q ? `?q=${encodeURIComponent(q)}` : ""}`, { signal }),
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
}

export function useSaveProcedure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: ProcedureInput }) =>
      id
        ? api<Procedure>(`/api/procedures/${encodeURIComponent(id)}`, { method: "PUT", body: input })
        : api<Procedure>("/api/procedures", { method: "POST", body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: procedureKeys.lists() }),
  });
}

export function useDeleteProcedure() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/procedures/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: (_data, id) => {
      queryClient.removeQueries({ queryKey: procedureKeys.associations(id) });
      void queryClient.invalidateQueries({ queryKey: procedureKeys.lists() });
    },
  });
}

export function useProcedureAssociations(id: string | undefined) {
  return useQuery({
    queryKey: procedureKeys.associations(id ?? ""),
    queryFn: ({ signal }) =>
      api<ProcedureAssociations>(`/api/procedures/${encodeURIComponent(id ?? "")}/associations`, { signal }),
    enabled: Boolean(id),
    retry: retryUnlessClientError,
  });
}

export function useSaveProcedureAssociations(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProcedureAssociationsInput) =>
      api<ProcedureAssociations>(`/api/procedures/${encodeURIComponent(id)}/associations`, {
        method: "PUT",
        body: input,
      }),
    onSuccess: (saved) => queryClient.setQueryData(procedureKeys.associations(id), saved),
  });
}
