import { useQuery } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type { DocumentMessages } from "@shared/schemas/reminders";

/** GET /api/documents/:id/messages: reminders sent and WhatsApp messages with their status (decision 059). */
export function useDocumentMessages(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ["documents", id, "messages"],
    queryFn: ({ signal }) => api<DocumentMessages>(`/api/documents/${id}/messages`, { signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    enabled,
  });
}
