import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type { EmbedSettings, EmbedSettingsInput } from "@shared/schemas/embedding";

const embeddingKey = ["settings", "embedding"] as const;

/** GET /api/settings/embedding: the sites allowed to show the signing page inside them (decision 071). */
export function useEmbedSettings(enabled: boolean) {
  return useQuery({
    queryKey: embeddingKey,
    enabled,
    queryFn: ({ signal }) => api<EmbedSettings>("/api/settings/embedding", { signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

export function useSaveEmbedSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EmbedSettingsInput) =>
      api<EmbedSettings>("/api/settings/embedding", { method: "PUT", body: input }),
    onSuccess: (saved) => queryClient.setQueryData(embeddingKey, saved),
  });
}
