import { type InfiniteData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { NoticeList, NoticeReadInput, UnreadNotices } from "@shared/notices/notice-schemas";
import { NOTICE_PAGE_SIZE } from "@shared/notices/notice-schemas";

/** Avisos (decision 028): the list and the unread count, refetched on live events. */
export const noticeKeys = {
  all: ["notices"] as const,
  list: () => ["notices", "list"] as const,
  unread: () => ["notices", "unread"] as const,
};

/** The notices, page after page ("Carregar mais"); each page also carries the unread count. */
export function useNotices() {
  const queryClient = useQueryClient();
  return useInfiniteQuery({
    queryKey: noticeKeys.list(),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(NOTICE_PAGE_SIZE) });
      if (pageParam) query.set("cursor", pageParam);
      const page = await api<NoticeList>(`/api/notices?${query.toString()}`, { signal });
      queryClient.setQueryData<UnreadNotices>(noticeKeys.unread(), { nao_lidos: page.nao_lidos });
      return page;
    },
    getNextPageParam: (last) => last.next_cursor,
  });
}

/**
 * The badge's count. No polling: live events invalidate it (documents, Feegow failures,
 * certificates, system notices) and it refetches when the window regains focus — the one thing
 * no event announces is a document entering its last 48 hours.
 */
export function useUnreadNotices(enabled = true) {
  return useQuery({
    queryKey: noticeKeys.unread(),
    queryFn: ({ signal }) => api<UnreadNotices>("/api/notices/unread-count", { signal }),
    enabled,
    refetchOnWindowFocus: true,
    staleTime: 10_000,
  });
}

export function useMarkNoticesRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NoticeReadInput) => api<UnreadNotices>("/api/notices/read", { method: "POST", body: input }),
    onSuccess: (result, input) => {
      queryClient.setQueryData<UnreadNotices>(noticeKeys.unread(), result);
      // Shown as read at once; the refetch then brings whatever arrived meanwhile.
      const keys = new Set(input.chaves ?? []);
      queryClient.setQueryData<InfiniteData<NoticeList>>(noticeKeys.list(), (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                nao_lidos: result.nao_lidos,
                items: page.items.map((notice) =>
                  input.todas || keys.has(notice.chave) ? { ...notice, lido: true } : notice,
                ),
              })),
            }
          : data,
      );
      void queryClient.invalidateQueries({ queryKey: noticeKeys.list() });
    },
  });
}

/** "99+" past 99; nothing at 0. */
export function unreadLabel(count: number | undefined): string | null {
  if (!count || count <= 0) return null;
  return count > 99 ? "99+" : String(count);
}
