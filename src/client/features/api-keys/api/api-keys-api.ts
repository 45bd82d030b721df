import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type { ApiKeyInput, ApiKeyView, CreatedApiKey } from "@shared/schemas/api-keys";

export const apiKeysKey = ["settings", "api-keys"] as const;

/** GET /api/settings/api-keys: the clinic's keys (owner and administrators, decision 058). */
export function useApiKeys(enabled: boolean) {
  return useQuery({
    queryKey: apiKeysKey,
    queryFn: ({ signal }) => api<ApiKeyView[]>("/api/settings/api-keys", { signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    enabled,
  });
}

/** POST /api/settings/api-keys: the answer carries the secret, this once. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApiKeyInput) => api<CreatedApiKey>("/api/settings/api-keys", { method: "POST", body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<ApiKeyView>(`/api/settings/api-keys/${id}/revoke`, { method: "POST" }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}
