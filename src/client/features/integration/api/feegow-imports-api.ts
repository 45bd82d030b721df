import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type {
  FeegowImportInput,
  FeegowProcedureImportResult,
  FeegowProcedureList,
  FeegowProfessionalImportResult,
  FeegowProfessionalList,
  FeegowSettings,
} from "@shared/schemas/feegow";
import { feegowKeys } from "./feegow-api";

/** Professionals and procedures from Feegow, and removing the token (decision 016, second step). */
export const feegowImportKeys = {
  procedures: ["integration", "feegow", "procedures"] as const,
  professionals: ["integration", "feegow", "professionals"] as const,
};

const noRetryOn4xx = (count: number, error: unknown) => !(error instanceof ApiError && error.status < 500) && count < 1;

export function useFeegowProcedures(enabled: boolean) {
  return useQuery({
    queryKey: feegowImportKeys.procedures,
    queryFn: ({ signal }) => api<FeegowProcedureList>("/api/integration/feegow/procedures", { signal }),
    enabled,
    retry: noRetryOn4xx,
  });
}

export function useImportFeegowProcedures() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FeegowImportInput) =>
      api<FeegowProcedureImportResult>("/api/integration/feegow/procedures/import", { body: input }),
    onSuccess: (result) => {
      queryClient.setQueryData<FeegowProcedureList>(feegowImportKeys.procedures, { items: result.items });
      void queryClient.invalidateQueries({ queryKey: ["procedures"] });
    },
  });
}

export function useFeegowProfessionals(enabled: boolean) {
  return useQuery({
    queryKey: feegowImportKeys.professionals,
    queryFn: ({ signal }) => api<FeegowProfessionalList>("/api/integration/feegow/professionals", { signal }),
    enabled,
    retry: noRetryOn4xx,
  });
}

export function useImportFeegowProfessionals() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FeegowImportInput) =>
      api<FeegowProfessionalImportResult>("/api/integration/feegow/professionals/import", { body: input }),
    onSuccess: (result) => {
      queryClient.setQueryData<FeegowProfessionalList>(feegowImportKeys.professionals, { items: result.items });
      void queryClient.invalidateQueries({ queryKey: ["users"] });
    },
  });
}

export function useRemoveFeegowToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<FeegowSettings>("/api/integration/feegow/token", { method: "DELETE" }),
    onSuccess: (settings) => {
      queryClient.setQueryData(feegowKeys.settings, settings);
      void queryClient.invalidateQueries({ queryKey: feegowKeys.features });
      queryClient.removeQueries({ queryKey: feegowImportKeys.procedures });
      queryClient.removeQueries({ queryKey: feegowImportKeys.professionals });
    },
  });
}
