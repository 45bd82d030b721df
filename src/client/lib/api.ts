import type { ApiErrorBody, ErrorCode, FieldIssue } from "@shared/errors";

export const UNEXPECTED_ERROR = "Erro inesperado. Tente novamente em instantes.";

/** An error answered by our API: stable code, pt-BR message, and per-field issues. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | "NETWORK",
    message: string,
    readonly issues: FieldIssue[] = [],
    /** Extra facts some errors carry (e.g. PATIENT_CPF_TAKEN: the patient holding the CPF). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

const NETWORK_MESSAGE = "Não foi possível falar com o servidor. Verifique sua conexão e tente novamente.";

export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  let response: Response;
  // A file (Blob) goes as its raw bytes with its own type; anything else as JSON.
  const isFile = typeof Blob !== "undefined" && init.body instanceof Blob;
  const contentType = isFile ? (init.body as Blob).type || "application/octet-stream" : "application/json";
  try {
    response = await fetch(path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers:
        init.body === undefined
          ? { accept: "application/json" }
          : { "content-type": contentType, accept: "application/json" },
      body: init.body === undefined ? undefined : isFile ? (init.body as Blob) : JSON.stringify(init.body),
      credentials: "same-origin",
      signal: init.signal,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiError(0, "NETWORK", NETWORK_MESSAGE);
  }
  const text = await response.text();
  const data: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const body = (data ?? {}) as Partial<ApiErrorBody>;
    throw new ApiError(
      response.status,
      body.code ?? "INTERNAL",
      body.message ?? UNEXPECTED_ERROR,
      body.issues ?? [],
      body.details ?? {},
    );
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The message to show for a failed call: the server's pt-BR message, or a generic one. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : UNEXPECTED_ERROR;
}
