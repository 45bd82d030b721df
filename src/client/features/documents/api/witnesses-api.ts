import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { Witness, WitnessData } from "@shared/schemas/witness";
import type { ARogo } from "@shared/schemas/a-rogo";
import { documentKeys, retryUnlessClientError } from "./documents-api";

/** Optional witnesses of a document (decision 021): named on the draft, each signs by own link. */
export const witnessKeys = {
  list: (id: string) => [...documentKeys.all, "witnesses", id] as const,
};

const path = (id: string, rest = "") => `/api/documents/${encodeURIComponent(id)}/witnesses${rest}`;

export function useWitnesses(id: string, enabled = true) {
  return useQuery({
    queryKey: witnessKeys.list(id),
    queryFn: ({ signal }) => api<{ items: Witness[]; max: number }>(path(id), { signal }),
    enabled,
    retry: retryUnlessClientError,
  });
}

export function useAddWitness(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WitnessData) => api<Witness>(path(id), { method: "POST", body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: witnessKeys.list(id) }),
  });
}

export function useRemoveWitness(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (witnessId: string) => api<void>(path(id, `/${encodeURIComponent(witnessId)}`), { method: "DELETE" }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: witnessKeys.list(id) }),
  });
}

/** Signature "a rogo" (decision 070): who signs at the patient's request, named on the draft. */
export function useSetARogo(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ARogo) => api<ARogo>(`/api/documents/${encodeURIComponent(id)}/a-rogo`, { method: "PUT", body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: documentKeys.detail(id) }),
  });
}

export function useRemoveARogo(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>(`/api/documents/${encodeURIComponent(id)}/a-rogo`, { method: "DELETE" }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: documentKeys.detail(id) }),
  });
}
