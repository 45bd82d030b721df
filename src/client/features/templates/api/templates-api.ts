import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type {
  AllowedSpecialties,
  TemplateDetail,
  TemplateInput,
  TemplateList,
  TemplateStats,
  TemplateStatus,
  TemplateUsage,
  TemplateVersion,
  TemplateVersionDetail,
} from "@shared/schemas/template";

export const templateKeys = {
  all: ["templates"] as const,
  lists: () => [...templateKeys.all, "list"] as const,
  list: (q: string, cursor: string | undefined) => [...templateKeys.lists(), q, cursor ?? ""] as const,
  stats: () => [...templateKeys.all, "stats"] as const,
  specialties: () => [...templateKeys.all, "specialties"] as const,
  detail: (id: string) => [...templateKeys.all, "detail", id] as const,
  versions: (id: string) => [...templateKeys.all, "versions", id] as const,
  version: (id: string, versionId: string) => [...templateKeys.all, "version", id, versionId] as const,
  statistics: (id: string) => [...templateKeys.all, "statistics", id] as const,
};

/** 4xx answers are final; only network and server errors are worth retrying. */
const retryUnlessClientError = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2;

const path = (id: string, rest = "") => `/api/templates/${encodeURIComponent(id)}${rest}`;

/** True when the API says the template is not there (unknown id, another clinic's, or not an id). */
export function isTemplateNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || (error.status === 400 && error.code === "VALIDATION"));
}

export function useTemplates(q: string, cursor: string | undefined) {
  return useQuery({
    queryKey: templateKeys.list(q, cursor),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams();
      if (q) params.set("q", q);
      if (cursor) params.set("cursor", cursor);
      const query = params.toString();
      return api<TemplateList>(`/api/templates${query ? `?${query}` : ""}`, { signal });
    },
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
}

export function useTemplateStats() {
  return useQuery({
    queryKey: templateKeys.stats(),
    queryFn: ({ signal }) => api<TemplateStats>("/api/templates/stats", { signal }),
    retry: retryUnlessClientError,
  });
}

export function useTemplateSpecialties() {
  return useQuery({
    queryKey: templateKeys.specialties(),
    queryFn: ({ signal }) => api<AllowedSpecialties>("/api/templates/specialties", { signal }),
    staleTime: 5 * 60 * 1000,
    retry: retryUnlessClientError,
  });
}

export function useTemplate(id: string) {
  return useQuery({
    queryKey: templateKeys.detail(id),
    queryFn: ({ signal }) => api<TemplateDetail>(path(id), { signal }),
    enabled: Boolean(id),
    retry: retryUnlessClientError,
  });
}

export function useTemplateVersions(id: string) {
  return useQuery({
    queryKey: templateKeys.versions(id),
    queryFn: ({ signal }) => api<{ items: TemplateVersion[] }>(path(id, "/versions"), { signal }),
    enabled: Boolean(id),
    retry: retryUnlessClientError,
  });
}

export function useTemplateStatistics(id: string) {
  return useQuery({
    queryKey: templateKeys.statistics(id),
    queryFn: ({ signal }) => api<TemplateUsage>(path(id, "/statistics"), { signal }),
    enabled: Boolean(id),
    retry: retryUnlessClientError,
  });
}

/** After any write: lists and counters change; the written template's screens are refreshed. */
function useInvalidateAfterWrite() {
  const queryClient = useQueryClient();
  return (detail?: TemplateDetail) => {
    void queryClient.invalidateQueries({ queryKey: templateKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: templateKeys.stats() });
    if (detail) {
      queryClient.setQueryData(templateKeys.detail(detail.id), detail);
      void queryClient.invalidateQueries({ queryKey: templateKeys.versions(detail.id) });
    }
  };
}

export function useCreateTemplate() {
  const invalidate = useInvalidateAfterWrite();
  return useMutation({
    mutationFn: (input: TemplateInput) => api<TemplateDetail>("/api/templates", { method: "POST", body: input }),
    onSuccess: (detail) => invalidate(detail),
  });
}

export function useUpdateTemplate(id: string) {
  const invalidate = useInvalidateAfterWrite();
  return useMutation({
    mutationFn: (input: TemplateInput) => api<TemplateDetail>(path(id), { method: "PUT", body: input }),
    onSuccess: (detail) => invalidate(detail),
  });
}

export function useDuplicateTemplate() {
  const invalidate = useInvalidateAfterWrite();
  return useMutation({
    mutationFn: (id: string) => api<TemplateDetail>(path(id, "/duplicate"), { method: "POST", body: {} }),
    onSuccess: (detail) => invalidate(detail),
  });
}

export function useChangeTemplateStatus(id: string) {
  const invalidate = useInvalidateAfterWrite();
  return useMutation({
    mutationFn: (status: TemplateStatus) =>
      api<TemplateDetail>(path(id, "/status"), { method: "POST", body: { status } }),
    onSuccess: (detail) => invalidate(detail),
  });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateAfterWrite();
  return useMutation({
    mutationFn: (id: string) => api<void>(path(id), { method: "DELETE" }),
    onSuccess: (_data, id) => {
      for (const key of [templateKeys.detail(id), templateKeys.versions(id), templateKeys.statistics(id)]) {
        queryClient.removeQueries({ queryKey: key });
      }
      invalidate();
    },
  });
}

/** One version with its content (immutable: never refetched while cached). */
export function useTemplateVersion(id: string, versionId: string | undefined) {
  return useQuery({
    queryKey: templateKeys.version(id, versionId ?? ""),
    queryFn: ({ signal }) =>
      api<TemplateVersionDetail>(path(id, `/versions/${encodeURIComponent(versionId ?? "")}`), { signal }),
    enabled: Boolean(id && versionId),
    staleTime: Infinity,
    retry: retryUnlessClientError,
  });
}

/** "Restaurar esta versão": a new version with the chosen one's content. */
export function useRestoreTemplateVersion(id: string) {
  const invalidate = useInvalidateAfterWrite();
  return useMutation({
    mutationFn: (versionId: string) =>
      api<TemplateDetail>(path(id, "/restore"), { method: "POST", body: { versao_id: versionId } }),
    onSuccess: (detail) => invalidate(detail),
  });
}
