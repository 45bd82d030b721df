import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { currentUserKey } from "@/features/auth";
import { ApiError, api } from "@/lib/api";
import type { ClinicSettings, ClinicSettingsInput } from "@shared/schemas/clinic-settings";
import type { ClinicLogo } from "@shared/clinic-logo";
import type { ProfessionalOrder } from "@shared/signing-rules";

/** GET/PUT /api/settings/signing: the e-mail code before signing, and when the professional signs (decision 050). */
export interface SigningSettings {
  codigo_email: boolean;
  ordem_profissional: ProfessionalOrder;
  /** The professional signs with the code sent to their account's e-mail too (decision 078). */
  codigo_profissional: boolean;
}

/** …and whether this server sends e-mail (SMTP) and can deliver a code at all. */
export interface SigningSettingsView extends SigningSettings {
  email_configurado: boolean;
  /** An e-mail can be read: SMTP, or the development outbox (never in production without SMTP). */
  email_entregavel: boolean;
  codigo_disponivel: boolean;
  sms_configurado: boolean;
}

/** What a document sent now will reach, in words for the send dialog and Configurações. */
export function signingLevelNotice(settings: SigningSettingsView): { level: "avancada" | "simples"; text: string } {
  if (!settings.codigo_email) {
    return {
      level: "simples",
      text: "A clínica desativou o código: os documentos são assinados com assinatura eletrônica simples.",
    };
  }
  if (!settings.codigo_disponivel) {
    return {
      level: "simples",
      text: "O envio de e-mail não está configurado neste servidor: nenhum código pode chegar ao paciente, e o documento será assinado com assinatura eletrônica simples.",
    };
  }
  const where = settings.sms_configurado
    ? settings.email_configurado
      ? "ao e-mail ou ao celular cadastrado"
      : "ao celular cadastrado (SMS)"
    : "ao e-mail cadastrado";
  return {
    level: "avancada",
    text: `O paciente confirma um código enviado ${where} antes de assinar: assinatura eletrônica avançada.`,
  };
}

export const settingsKeys = {
  signing: ["settings", "signing"] as const,
  clinic: ["settings", "clinic"] as const,
  logo: ["settings", "clinic", "logo"] as const,
};

export function useSigningSettings() {
  return useQuery({
    queryKey: settingsKeys.signing,
    queryFn: ({ signal }) => api<SigningSettingsView>("/api/settings/signing", { signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

export function useSaveSigningSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Partial<SigningSettings>) =>
      api<SigningSettingsView>("/api/settings/signing", { method: "PUT", body: input }),
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.signing, saved),
  });
}

/** GET /api/settings/clinic: the clinic's data and document validity (owner and administrators). */
export function useClinicSettings(enabled: boolean) {
  return useQuery({
    queryKey: settingsKeys.clinic,
    queryFn: ({ signal }) => api<ClinicSettings>("/api/settings/clinic", { signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    enabled,
  });
}

export function useSaveClinicSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ClinicSettingsInput) =>
      api<ClinicSettings>("/api/settings/clinic", { method: "PUT", body: input }),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.clinic, saved);
      // The clinic's name shows in the shell and the profile.
      void queryClient.invalidateQueries({ queryKey: currentUserKey });
    },
  });
}

/** The clinic's logo: GET, PUT (the file itself) and DELETE /api/settings/clinic/logo. */
export function useClinicLogo() {
  return useQuery({
    queryKey: settingsKeys.logo,
    queryFn: ({ signal }) => api<ClinicLogo>("/api/settings/clinic/logo", { signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

export function useUploadClinicLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => api<ClinicLogo>("/api/settings/clinic/logo", { method: "PUT", body: file }),
    onSuccess: (data) => queryClient.setQueryData(settingsKeys.logo, data),
  });
}

export function useRemoveClinicLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<ClinicLogo>("/api/settings/clinic/logo", { method: "DELETE" }),
    onSuccess: (data) => queryClient.setQueryData(settingsKeys.logo, data),
  });
}
