import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError, api } from "@/lib/api";
import type { ContactFixInput, SendCheck, SignatureSummary, SigningLink } from "@shared/schemas/signing";
import { documentKeys, retryUnlessClientError, saveDownload } from "./documents-api";

export const signingKeys = {
  link: (id: string) => [...documentKeys.all, "signing-link", id] as const,
  signatures: (id: string) => [...documentKeys.all, "signatures", id] as const,
  sendCheck: (id: string) => [...documentKeys.all, "send-check", id] as const,
};

const path = (id: string, rest: string) => `/api/documents/${encodeURIComponent(id)}/${rest}`;

/**
 * The live signing link of a sent or viewed document; null when none was issued (404). Each
 * fetch is an audit event naming the user, so it is fetched only when staff ask.
 */
export function useSigningLink(id: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: signingKeys.link(id ?? ""),
    queryFn: async ({ signal }) => {
      try {
        return await api<SigningLink>(path(id!, "link?via=ver"), { signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    enabled: Boolean(id) && enabled,
    retry: retryUnlessClientError,
    refetchOnWindowFocus: false,
  });
}

export function useSignatures(id: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: signingKeys.signatures(id ?? ""),
    queryFn: async ({ signal }) =>
      (await api<{ items: SignatureSummary[] }>(path(id!, "signatures"), { signal })).items,
    enabled: Boolean(id) && enabled,
    retry: retryUnlessClientError,
    refetchOnWindowFocus: false,
  });
}

/**
 * Before Enviar/Reenviar: what the server would refuse (its own rule and messages) and whether the
 * link can also go by e-mail. Asked afresh each time the dialog opens.
 */
export function useSendCheck(id: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: signingKeys.sendCheck(id ?? ""),
    queryFn: ({ signal }) => api<SendCheck>(path(id!, "send-check"), { signal }),
    enabled: Boolean(id) && enabled,
    retry: retryUnlessClientError,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

export type SendMode = "send" | "resend";

/** Enviar para Assinatura (draft) or Reenviar (sent/viewed: a new token, the old link stops working). */
export function useSendForSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, mode, email, sms }: { id: string; mode: SendMode; email: boolean; sms?: boolean }) =>
      api<SigningLink>(path(id, mode), { method: "POST", body: sms ? { email, sms } : { email } }),
    onSuccess: (link, { id }) => {
      queryClient.setQueryData(signingKeys.link(id), link);
      void queryClient.invalidateQueries({ queryKey: documentKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: documentKeys.counters() });
      void queryClient.invalidateQueries({ queryKey: documentKeys.recent() });
      void queryClient.invalidateQueries({ queryKey: documentKeys.detail(id) });
    },
  });
}

/** The code for the professional's signature, sent to the e-mail of their own account (decision 042). */
export function useProfessionalSigningCode() {
  return useMutation({
    mutationFn: ({ id }: { id: string }) =>
      api<{ enviado: true; canal: "email"; destino: string }>(path(id, "professional-signature/code"), {
        method: "POST",
        body: {},
      }),
  });
}

/** The responsible professional signs the professional declaration (password typed again, and the code when sent). */
export function useProfessionalSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      senha,
      com_certificado,
      codigo,
    }: {
      id: string;
      senha: string;
      com_certificado?: boolean;
      codigo?: string;
    }) =>
      api<{
        assinou_em: string;
        metodo_assinatura: string;
        nivel_assinatura: "avancada" | "simples";
        documento_assinado: boolean;
      }>(path(id, "professional-signature"), {
        method: "POST",
        body: { senha, com_certificado, ...(codigo ? { codigo } : {}) },
      }),
    onSuccess: (_result, { id }) => {
      // The last signature may complete the document (decision 050): lists and counters change too.
      void queryClient.invalidateQueries({ queryKey: documentKeys.all });
      void queryClient.invalidateQueries({ queryKey: signingKeys.signatures(id) });
    },
  });
}

/** Email: the patient gets the SAME live link by e-mail (nothing is replaced). */
export function useEmailSigningLink() {
  return useMutation({
    mutationFn: ({ id }: { id: string }) => api<SigningLink>(path(id, "email-link"), { method: "POST" }),
  });
}

/**
 * Downloads the sealed PDF. 'pending' while the job that seals it has not finished (404
 * 'PDF não disponível'); the file name on success.
 */
export async function downloadSignedPdf(
  id: string,
): Promise<{ status: "pending" } | { status: "saved"; name: string }> {
  let response: Response;
  try {
    response = await fetch(path(id, "signed-pdf"), { credentials: "same-origin" });
  } catch {
    throw new ApiError(0, "NETWORK", "Não foi possível falar com o servidor.");
  }
  if (response.status === 404) return { status: "pending" };
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { code?: ApiError["code"]; message?: string };
    throw new ApiError(
      response.status,
      body.code ?? "INTERNAL",
      body.message ?? "Não foi possível baixar o PDF assinado.",
    );
  }
  return { status: "saved", name: await saveDownload(response, `documento-assinado-${id.slice(-8)}.pdf`) };
}

/** One document's outcome in a batch signature (decision 050). */
export interface BatchSignatureRow {
  id: string;
  ok: boolean;
  assinatura?: { assinou_em: string; nivel_assinatura: "avancada" | "simples"; documento_assinado: boolean };
  erro?: { codigo: string; status: number; mensagem: string };
}

/** One code, one e-mail, for the declarations chosen (POST /api/documents/professional-signatures/code). */
export function useBatchSigningCode() {
  return useMutation({
    mutationFn: ({ ids }: { ids: string[] }) =>
      api<{ destino: string; ids: string[]; recusados: { id: string; codigo: string; mensagem: string }[] }>(
        "/api/documents/professional-signatures/code",
        { method: "POST", body: { ids } },
      ),
  });
}

/** Several declarations with one password and one code; a result per document. */
export function useBatchProfessionalSignature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, senha, codigo }: { ids: string[]; senha: string; codigo?: string }) =>
      api<{ items: BatchSignatureRow[] }>("/api/documents/professional-signatures", {
        method: "POST",
        body: { ids, senha, ...(codigo ? { codigo } : {}) },
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: documentKeys.all }),
  });
}

/**
 * "Corrigir contato e reenviar": the patient's corrected e-mail and/or mobile go on the record and
 * a new link goes out; the old link and any pending code stop working.
 */
export function useFixContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ContactFixInput }) =>
      api<SigningLink>(path(id, "contact"), { method: "POST", body }),
    onSuccess: (link, { id }) => {
      queryClient.setQueryData(signingKeys.link(id), link);
      void queryClient.invalidateQueries({ queryKey: documentKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: documentKeys.lists() });
    },
  });
}
