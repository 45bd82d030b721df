import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";

/** GET/PUT /api/settings/signing: does the clinic ask for the e-mail code before signing. */
export interface SigningSettings {
  codigo_email: boolean;
}

export const settingsKeys = { signing: ["settings", "signing"] as const };

export function useSigningSettings() {
  return useQuery({
    queryKey: settingsKeys.signing,
    queryFn: ({ signal }) => api<SigningSettings>("/api/settings/signing", { signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

export function useSaveSigningSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SigningSettings) => api<SigningSettings>("/api/settings/signing", { method: "PUT", body: input }),
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.signing, saved),
  });
}
