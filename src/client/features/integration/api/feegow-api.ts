import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type { FeegowFeatureFlags, FeegowPatient, FeegowSettings, FeegowSettingsInput } from "@shared/schemas/feegow";

/** The clinic-system (Feegow) integration: only our server talks to Feegow (decision 016). */
export const feegowKeys = {
  settings: ["integration", "feegow", "settings"] as const,
  features: ["integration", "feegow", "features"] as const,
};

const noRetryOn4xx = (count: number, error: unknown) => !(error instanceof ApiError && error.status < 500) && count < 2;

export function useFeegowSettings() {
  return useQuery({
    queryKey: feegowKeys.settings,
    queryFn: ({ signal }) => api<FeegowSettings>("/api/integration/feegow", { signal }),
    retry: noRetryOn4xx,
  });
}

/** What the staff may use now (any signed-in member). */
export function useFeegowFeatures() {
  return useQuery({
    queryKey: feegowKeys.features,
    queryFn: ({ signal }) => api<FeegowFeatureFlags>("/api/integration/feegow/features", { signal }),
    retry: noRetryOn4xx,
    staleTime: 60_000,
  });
}

export function useSaveFeegowSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FeegowSettingsInput) =>
      api<FeegowSettings>("/api/integration/feegow", { method: "PUT", body: input }),
    onSuccess: (saved) => {
      queryClient.setQueryData(feegowKeys.settings, saved);
      void queryClient.invalidateQueries({ queryKey: feegowKeys.features });
    },
  });
}

export function useTestFeegowConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<{ ok: true; message: string; settings: FeegowSettings }>("/api/integration/feegow/test", { method: "POST" }),
    onSuccess: (result) => queryClient.setQueryData(feegowKeys.settings, result.settings),
    // A failed test changed the status to error on the server: read it again.
    onError: () => void queryClient.invalidateQueries({ queryKey: feegowKeys.settings }),
  });
}

export function useSearchFeegowPatient() {
  return useMutation({
    mutationFn: (cpf: string) => api<FeegowPatient>("/api/integration/feegow/patients/search", { body: { cpf } }),
  });
}
