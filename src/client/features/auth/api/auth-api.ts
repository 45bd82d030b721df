import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type { PasswordResetConfirmInput, SignInInput } from "@shared/schemas/auth";
import type { CurrentUser } from "@shared/schemas/me";
import type { SignUpInput } from "@shared/schemas/signup";
import { stopLiveStreams } from "@/lib/live-streams";

export const currentUserKey = ["auth", "me"] as const;

/** The signed-in user, or null when signed out. */
export function useCurrentUser() {
  return useQuery({
    queryKey: currentUserKey,
    queryFn: async () => {
      const session = await api<{ user: CurrentUser | null; bloqueada?: boolean }>("/api/auth/session");
      // Front-desk signing: the device is with the patient until a staff password unlocks it.
      if (session.bloqueada) throw new ApiError(423, "SESSION_LOCKED", "Aparelho bloqueado");
      return session.user;
    },
    staleTime: 5 * 60 * 1000,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SignInInput) => api<CurrentUser>("/api/auth/sign-in", { body: input }),
    onSuccess: (user) => {
      queryClient.clear();
      queryClient.setQueryData(currentUserKey, user);
    },
  });
}

export function useSignUp() {
  return useMutation({
    mutationFn: (input: SignUpInput) =>
      api<{ tenant_id: string; profile_id: string }>("/api/auth/sign-up", { body: input }),
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      // Quiet first: no live stream or read may still be waiting when the session ends (it would get a 401).
      stopLiveStreams();
      await queryClient.cancelQueries();
      return api<{ ok: true }>("/api/auth/sign-out", { body: {} });
    },
    onSettled: () => {
      queryClient.clear();
      queryClient.setQueryData(currentUserKey, null);
    },
  });
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) => api<{ ok: true }>("/api/auth/password-reset/request", { body: { email } }),
  });
}

export function useConfirmPasswordReset() {
  return useMutation({
    mutationFn: (input: PasswordResetConfirmInput) =>
      api<{ ok: true }>("/api/auth/password-reset/confirm", { body: input }),
  });
}
