import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type {
  DocumentCounters,
  DocumentCreateInput,
  DocumentDetail,
  DocumentFormOptions,
  DocumentList,
  DocumentListQuery,
  DocumentSummary,
} from "@shared/schemas/document";
import { documentListQueryString } from "../lib/list-params";

export const documentKeys = {
  all: ["documents"] as const,
  lists: () => [...documentKeys.all, "list"] as const,
  list: (query: DocumentListQuery) => [...documentKeys.lists(), query] as const,
  counters: () => [...documentKeys.all, "counters"] as const,
  recent: () => [...documentKeys.all, "recent"] as const,
  formOptions: () => [...documentKeys.all, "form-options"] as const,
  detail: (id: string) => [...documentKeys.all, "detail", id] as const,
};

/** 4xx answers are final; only network and server errors are worth retrying. */
export const retryUnlessClientError = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2;

/** One page of the clinic's documents (keyset paging: pass next_cursor back as `cursor`). */
export function useDocuments(query: DocumentListQuery) {
  return useQuery({
    queryKey: documentKeys.list(query),
    queryFn: ({ signal }) => {
      const qs = documentListQueryString(query);
      return api<DocumentList>(`/api/documents${qs ? `?${qs}` : ""}`, { signal });
    },
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
}

export function useDocumentCounters() {
  return useQuery({
    queryKey: documentKeys.counters(),
    queryFn: ({ signal }) => api<DocumentCounters>("/api/documents/counters", { signal }),
    retry: retryUnlessClientError,
  });
}

export function useRecentDocuments() {
  return useQuery({
    queryKey: documentKeys.recent(),
    queryFn: async ({ signal }) => (await api<{ items: DocumentSummary[] }>("/api/documents/recent", { signal })).items,
    retry: retryUnlessClientError,
  });
}

export function useDocumentFormOptions(enabled = true) {
  return useQuery({
    queryKey: documentKeys.formOptions(),
    queryFn: ({ signal }) => api<DocumentFormOptions>("/api/documents/form-options", { signal }),
    enabled,
    retry: retryUnlessClientError,
  });
}

export function useDocument(id: string | undefined) {
  return useQuery({
    queryKey: documentKeys.detail(id ?? ""),
    queryFn: ({ signal }) => api<DocumentDetail>(`/api/documents/${encodeURIComponent(id ?? "")}`, { signal }),
    enabled: Boolean(id),
    retry: retryUnlessClientError,
    // Every read is written to the audit trail: no silent re-reads on window focus.
    refetchOnWindowFocus: false,
    staleTime: 30_000,
  });
}

/** Everything a change of one document may move: lists, counters, the dashboard, that document. */
function invalidateDocuments(queryClient: ReturnType<typeof useQueryClient>, id?: string) {
  void queryClient.invalidateQueries({ queryKey: documentKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: documentKeys.counters() });
  void queryClient.invalidateQueries({ queryKey: documentKeys.recent() });
  if (id) void queryClient.invalidateQueries({ queryKey: documentKeys.detail(id) });
  // Patients carry a document count.
  void queryClient.invalidateQueries({ queryKey: ["patients"] });
}

export interface DocumentCreated {
  id: string;
  pdf_gerado: boolean;
  pdf_nome: string | null;
}

export function useCreateDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DocumentCreateInput) => api<DocumentCreated>("/api/documents", { method: "POST", body: input }),
    onSuccess: (created) => invalidateDocuments(queryClient, created.id),
  });
}

export function useCancelDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, motivo }: { id: string; motivo: string }) =>
      api<void>(`/api/documents/${encodeURIComponent(id)}/cancel`, { method: "POST", body: { motivo } }),
    onSuccess: (_data, { id }) => invalidateDocuments(queryClient, id),
  });
}

export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/documents/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: (_data, id) => {
      queryClient.removeQueries({ queryKey: documentKeys.detail(id) });
      invalidateDocuments(queryClient);
    },
  });
}

/** The file name in a Content-Disposition header (filename* first), or null. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ""));
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || null;
}

/** Fetches the document's PDF (the server generates it when missing) and saves it under the server's name. */
export async function downloadDocumentPdf(id: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`/api/documents/${encodeURIComponent(id)}/pdf`, { credentials: "same-origin" });
  } catch {
    throw new ApiError(0, "NETWORK", "Não foi possível falar com o servidor.");
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { code?: ApiError["code"]; message?: string };
    throw new ApiError(response.status, body.code ?? "INTERNAL", body.message ?? "Erro ao gerar PDF");
  }
  return saveDownload(response, `documento-${id.slice(-8)}.pdf`);
}

/** Saves a download's body under the name the server gave (else `fallback`); returns the name. */
export async function saveDownload(response: Response, fallback: string): Promise<string> {
  const name = fileNameFromDisposition(response.headers.get("content-disposition")) ?? fallback;
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = name;
  anchor.rel = "noopener";
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

/** The sealed PDF of a refusal or revocation record (decision 056). */
export async function downloadChoiceRecordPdf(documentId: string, recordId: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(
      `/api/documents/${encodeURIComponent(documentId)}/records/${encodeURIComponent(recordId)}/pdf`,
      { credentials: "same-origin" },
    );
  } catch {
    throw new ApiError(0, "NETWORK", "Não foi possível falar com o servidor.");
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { code?: ApiError["code"]; message?: string };
    throw new ApiError(response.status, body.code ?? "INTERNAL", body.message ?? "PDF não disponível");
  }
  return saveDownload(response, `registro-${recordId.slice(-8)}.pdf`);
}
