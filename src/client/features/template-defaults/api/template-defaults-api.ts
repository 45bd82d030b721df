import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type { z } from "zod";
import type {
  AllowedSpecialties,
  PlatformClinicList,
  TemplateDefaults,
  templateDefaultsInputSchema,
} from "@shared/schemas/template";

export const templateDefaultsKey = ["me", "template-defaults"] as const;
/** Same key as the templates feature uses for this call, so both screens share one cache entry. */
export const allowedSpecialtiesKey = ["templates", "specialties"] as const;

/** 4xx answers are final; only network and server errors are worth retrying. */
const retryUnlessClientError = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2;

/** The signed-in professional's default texts (GET /api/me/template-defaults). */
export function useTemplateDefaults() {
  return useQuery({
    queryKey: templateDefaultsKey,
    queryFn: ({ signal }) => api<TemplateDefaults>("/api/me/template-defaults", { signal }),
    retry: retryUnlessClientError,
  });
}

/** Saves the four defaults (blank → null on the server); the answer becomes the cached value. */
export function useSaveTemplateDefaults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.output<typeof templateDefaultsInputSchema>) =>
      api<TemplateDefaults>("/api/me/template-defaults", { method: "PUT", body: input }),
    onSuccess: (saved) => queryClient.setQueryData(templateDefaultsKey, saved),
  });
}

/** The specialties the user may give a template; not asked for when `enabled` is false (saas_admin). */
export function useAllowedSpecialties(enabled: boolean) {
  return useQuery({
    queryKey: allowedSpecialtiesKey,
    queryFn: ({ signal }) => api<AllowedSpecialties>("/api/templates/specialties", { signal }),
    enabled,
    staleTime: 5 * 60 * 1000,
    retry: retryUnlessClientError,
  });
}

/** The clinics the platform administrator may choose (saas_admin only; part 2 §6). */
export function usePlatformClinics(enabled: boolean) {
  return useQuery({
    queryKey: ["templates", "specialty-clinics"],
    queryFn: ({ signal }) => api<PlatformClinicList>("/api/templates/specialty-clinics", { signal }),
    enabled,
    retry: retryUnlessClientError,
  });
}

/** One chosen clinic's specialties (p_clinica_id); not asked for until a clinic is chosen. */
export function useClinicSpecialties(clinicId: string) {
  return useQuery({
    queryKey: [...allowedSpecialtiesKey, clinicId],
    queryFn: ({ signal }) =>
      api<AllowedSpecialties>(`/api/templates/specialties?clinica_id=${encodeURIComponent(clinicId)}`, { signal }),
    enabled: clinicId !== "",
    staleTime: 5 * 60 * 1000,
    retry: retryUnlessClientError,
  });
}
