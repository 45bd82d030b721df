import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { BulkSendInput, BulkSendOptions, BulkSendResult } from "@shared/schemas/bulk-send";
import { documentKeys, retryUnlessClientError } from "./documents-api";

/** What Enviar em lote may use: the row bound, the channels of this server, the clinic's signing order. */
export function useBulkSendOptions() {
  return useQuery({
    queryKey: [...documentKeys.all, "bulk-options"],
    queryFn: ({ signal }) => api<BulkSendOptions>("/api/documents/bulk/options", { signal }),
    retry: retryUnlessClientError,
  });
}

/** One request of a batch (the screen sends a batch in small requests to show progress). */
export function useBulkSend() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BulkSendInput) => api<BulkSendResult>("/api/documents/bulk", { method: "POST", body: input }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: documentKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: documentKeys.counters() });
      void queryClient.invalidateQueries({ queryKey: documentKeys.recent() });
    },
  });
}
