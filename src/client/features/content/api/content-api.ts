import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type { ContentItem, ContentItemInput, ContentKind, ContentList } from "@shared/schemas/content";

export const contentKeys = {
  all: ["content"] as const,
  kind: (kind: ContentKind) => [...contentKeys.all, kind] as const,
  list: (kind: ContentKind, q: string) => [...contentKeys.kind(kind), q] as const,
};

const retryUnlessClientError = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2;

/** The clinic's items of one kind (riscos, beneficios, cuidados), by title. */
export function useContentItems(kind: ContentKind, q: string) {
  return useQuery({
    queryKey: contentKeys.list(kind, q),
    queryFn: ({ signal }) =>
      api<ContentList>(`/api/content/${kind}${q ? `?q=${encodeURIComponent(q)}` : ""}`, { signal }),
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
}

export function useSaveContentItem(kind: ContentKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: ContentItemInput }) =>
      id
        ? api<ContentItem>(`/api/content/${kind}/${encodeURIComponent(id)}`, { method: "PUT", body: input })
        : api<ContentItem>(`/api/content/${kind}`, { method: "POST", body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: contentKeys.kind(kind) }),
  });
}

export function useDeleteContentItem(kind: ContentKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/content/${kind}/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: contentKeys.kind(kind) });
      // Deleting an item also drops its links to procedures.
      void queryClient.invalidateQueries({ queryKey: ["procedures", "associations"] });
    },
  });
}
