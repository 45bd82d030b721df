import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { FeegowUpload, FeegowUploadList } from "@shared/schemas/feegow";

/** PDFs on their way to the patient's record in Feegow (decision 016, second step). */
export const feegowUploadKeys = {
  all: ["feegow-uploads"] as const,
  document: (id: string) => ["feegow-uploads", "document", id] as const,
  latest: (ids: readonly string[]) => ["feegow-uploads", "latest", [...ids].sort().join(",")] as const,
};

/** Still moving: read again soon. */
export const isOpen = (upload: FeegowUpload | undefined) =>
  upload?.status === "pendente" || upload?.status === "enviando";
const POLL_MS = 2000;

/** The latest upload of each listed document (documents list), polled while any is on its way. */
export function useLatestFeegowUploads(documentIds: readonly string[], enabled: boolean) {
  return useQuery({
    queryKey: feegowUploadKeys.latest(documentIds),
    queryFn: async ({ signal }) => {
      const { items } = await api<FeegowUploadList>(
        `/api/integration/feegow/uploads?documentos=${documentIds.join(",")}`,
        { signal },
      );
      return new Map(items.map((upload) => [upload.contrato_id, upload]));
    },
    enabled: enabled && documentIds.length > 0,
    refetchInterval: (query) => ([...(query.state.data?.values() ?? [])].some(isOpen) ? POLL_MS : false),
  });
}

/** Every upload of one document, newest first (detail page). */
export function useDocumentFeegowUploads(documentId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: feegowUploadKeys.document(documentId ?? ""),
    queryFn: ({ signal }) => api<FeegowUploadList>(`/api/documents/${documentId}/feegow-uploads`, { signal }),
    enabled: enabled && Boolean(documentId),
    refetchInterval: (query) => (query.state.data?.items.some(isOpen) ? POLL_MS : false),
  });
}

export function requestFeegowUpload(documentId: string) {
  return api<{ upload: FeegowUpload; enfileirado: boolean }>(`/api/documents/${documentId}/feegow-upload`, {
    method: "POST",
  });
}

export async function readDocumentUploads(documentId: string, signal?: AbortSignal): Promise<FeegowUpload[]> {
  return (await api<FeegowUploadList>(`/api/documents/${documentId}/feegow-uploads`, { signal })).items;
}

export function useRetryFeegowUpload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uploadId: string) =>
      api<FeegowUpload>(`/api/integration/feegow/uploads/${uploadId}/retry`, { method: "POST" }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: feegowUploadKeys.all }),
  });
}
