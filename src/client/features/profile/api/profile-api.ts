import { useMutation, useQueryClient } from "@tanstack/react-query";
import { currentUserKey } from "@/features/auth";
import { api } from "@/lib/api";
import type { CurrentUser } from "@shared/schemas/me";
import type { PasswordChangeInput, ProfileUpdateInput } from "@shared/schemas/profile";

/** PATCH /api/profile: the answer is the session's user, which replaces the cached one. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileUpdateInput) => api<CurrentUser>("/api/profile", { method: "PATCH", body: input }),
    onSuccess: (user) => queryClient.setQueryData(currentUserKey, user),
  });
}

/** POST /api/profile/password: ends the user's other sessions; this one stays. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (input: PasswordChangeInput) =>
      api<{ sessions_ended: number }>("/api/profile/password", { body: input }),
  });
}
