import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import { currentUserKey } from "@/features/auth";
import type { CurrentUser } from "@shared/schemas/me";
import type {
  AssignableRole,
  InvitationAcceptInput,
  InvitationInfo,
  User,
  UserCreateInput,
  UserList,
  UserListQuery,
  UserUpdateInput,
} from "@shared/schemas/users";

export const userKeys = {
  all: ["users"] as const,
  lists: () => [...userKeys.all, "list"] as const,
  list: (query: UserListQuery) => [...userKeys.lists(), query] as const,
};

/** 4xx answers are final; only network and server errors are worth retrying. */
const retryUnlessClientError = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2;

function queryString(query: UserListQuery): string {
  const params = new URLSearchParams();
  if (query.q?.trim()) params.set("q", query.q.trim());
  if (query.cursor) params.set("cursor", query.cursor);
  if (query.limit) params.set("limit", String(query.limit));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** One page of the clinic's users (keyset paging: pass next_cursor back as `cursor`). */
export function useUsers(query: UserListQuery, enabled: boolean) {
  return useQuery({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) => api<UserList>(`/api/users${queryString(query)}`, { signal }),
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
    enabled,
  });
}

function useUserMutation<V>(run: (variables: V) => Promise<User>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userKeys.lists() }),
  });
}

export const useCreateUser = () =>
  useUserMutation((input: UserCreateInput) => api<User>("/api/users", { method: "POST", body: input }));

export const useSetUserActive = () =>
  useUserMutation(({ id, isActive }: { id: string; isActive: boolean }) =>
    api<User>(`/api/users/${encodeURIComponent(id)}/status`, { method: "PATCH", body: { is_active: isActive } }),
  );

export const useChangeUserRole = () =>
  useUserMutation(({ id, role }: { id: string; role: AssignableRole }) =>
    api<User>(`/api/users/${encodeURIComponent(id)}/role`, { method: "PATCH", body: { role } }),
  );

export const useUpdateUser = () =>
  useUserMutation(({ id, input }: { id: string; input: UserUpdateInput }) =>
    api<User>(`/api/users/${encodeURIComponent(id)}`, { method: "PATCH", body: input }),
  );

export const useResendInvitation = () =>
  useUserMutation((id: string) =>
    api<User>(`/api/users/${encodeURIComponent(id)}/invitation`, { method: "POST", body: {} }),
  );

/** Who an invitation link invites (the token goes in the body, not in a logged URL). */
export function useInvitation(token: string) {
  return useQuery({
    queryKey: ["invitation", token],
    queryFn: () => api<InvitationInfo>("/api/invitations/lookup", { body: { token } }),
    retry: retryUnlessClientError,
    enabled: token.length > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Sets the password from the invitation and signs in (the answer is the session's user). */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InvitationAcceptInput) => api<CurrentUser>("/api/invitations/accept", { body: input }),
    onSuccess: (user) => {
      // Everything cached belonged to whoever used this browser before; the invitation itself
      // stays (its page is still mounted and would ask again, now for a spent link).
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== "invitation" });
      queryClient.setQueryData(currentUserKey, user);
    },
  });
}
