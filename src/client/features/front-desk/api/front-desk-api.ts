import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";

/**
 * Front-desk signing: "Assinar neste aparelho" locks this staff session to the document
 * and answers the patient's signing page; the staff member's password unlocks it again.
 */
export function useStartFrontDesk() {
  return useMutation({
    mutationFn: (documentId: string) =>
      api<{ caminho: string }>(`/api/documents/${encodeURIComponent(documentId)}/front-desk`, { body: {} }),
  });
}

export function useUnlockDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (senha: string) => api<{ ok: true }>("/api/auth/unlock", { body: { senha_atual: senha } }),
    // Everything cached before the hand-over is refetched as the staff member again.
    onSuccess: () => queryClient.clear(),
  });
}
