import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type {
  Certificate,
  CertificateList,
  CertificateUploadInput,
  CertificateUploadResult,
} from "@shared/schemas/certificates";

export const certificateKeys = {
  all: ["certificates"] as const,
  list: () => [...certificateKeys.all, "list"] as const,
};

/** 4xx answers are final; only network and server errors are worth retrying. */
const retryUnlessClientError = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2;

/** The clinic's certificates (a professional: their own), newest first. */
export function useCertificates(enabled = true) {
  return useQuery({
    queryKey: certificateKeys.list(),
    queryFn: ({ signal }) => api<CertificateList>("/api/certificates", { signal }),
    retry: retryUnlessClientError,
    enabled,
  });
}

export function useUploadCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CertificateUploadInput) =>
      api<CertificateUploadResult>("/api/certificates", { method: "POST", body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: certificateKeys.all }),
  });
}

export function useRemoveCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Certificate>(`/api/certificates/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: certificateKeys.all }),
  });
}

/** The file's bytes as base64 (what the API takes), read in the browser. */
export function fileToBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const result = String(reader.result ?? "");
      resolve(result.slice(result.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error("Não foi possível ler o arquivo."));
    reader.readAsDataURL(file);
  });
}
