import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type { ReminderSettingsInput, ReminderSettingsView } from "@shared/schemas/reminders";

const reminderKey = ["settings", "reminders"] as const;

/** GET /api/settings/reminders: automatic reminders on/off and how many (decision 059). */
export function useReminderSettings() {
  return useQuery({
    queryKey: reminderKey,
    queryFn: ({ signal }) => api<ReminderSettingsView>("/api/settings/reminders", { signal }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
}

export function useSaveReminderSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReminderSettingsInput) =>
      api<ReminderSettingsView>("/api/settings/reminders", { method: "PUT", body: input }),
    onSuccess: (saved) => queryClient.setQueryData(reminderKey, saved),
  });
}
