import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type {
  CreatedWebhookEndpoint,
  RotatedWebhookSecret,
  WebhookDeliveryView,
  WebhookEndpointInput,
  WebhookEndpointUpdate,
  WebhookEndpointView,
} from "@shared/schemas/webhooks";

export const webhooksKey = ["settings", "webhooks"] as const;
const deliveriesKey = (id: string) => [...webhooksKey, id, "deliveries"] as const;
const noRetryOn4xx = (count: number, error: unknown) => !(error instanceof ApiError && error.status < 500) && count < 2;

/** GET /api/settings/webhooks: the clinic's endpoints (owner and administrators, decision 062). */
export function useWebhookEndpoints(enabled: boolean) {
  return useQuery({
    queryKey: webhooksKey,
    queryFn: ({ signal }) => api<WebhookEndpointView[]>("/api/settings/webhooks", { signal }),
    retry: noRetryOn4xx,
    enabled,
  });
}

/** The endpoint's latest deliveries; looked at again every few seconds while any is still waiting. */
export function useWebhookDeliveries(endpointId: string) {
  return useQuery({
    queryKey: deliveriesKey(endpointId),
    queryFn: ({ signal }) => api<WebhookDeliveryView[]>(`/api/settings/webhooks/${endpointId}/deliveries`, { signal }),
    retry: noRetryOn4xx,
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.status === "pending" || d.status === "sending") ? 3000 : false,
  });
}

/** POST /api/settings/webhooks: the answer carries the signing secret, this once. */
export function useCreateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookEndpointInput) =>
      api<CreatedWebhookEndpoint>("/api/settings/webhooks", { method: "POST", body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

export function useUpdateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: WebhookEndpointUpdate }) =>
      api<WebhookEndpointView>(`/api/settings/webhooks/${id}`, { method: "PATCH", body: input }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

export function useDeleteWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/settings/webhooks/${id}`, { method: "DELETE" }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

/** A new secret (shown once); the previous one still signs, next to it, for 24 hours. */
export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<RotatedWebhookSecret>(`/api/settings/webhooks/${id}/rotate-secret`, { method: "POST" }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
}

/** "Enviar evento de teste": a signed `webhook.test` delivery, listed with the others. */
export function useSendWebhookTestEvent(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<WebhookDeliveryView>(`/api/settings/webhooks/${endpointId}/test`, { method: "POST", body: {} }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: deliveriesKey(endpointId) }),
  });
}

/** "Reenviar": the same message again, now. */
export function useResendWebhookDelivery(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      api<WebhookDeliveryView>(`/api/settings/webhooks/${endpointId}/deliveries/${deliveryId}/resend`, {
        method: "POST",
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: deliveriesKey(endpointId) }),
  });
}
