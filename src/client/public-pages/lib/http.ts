import { BUSY_RETRY_BUDGET_MS, busyRetryDelayMs, retryAfterSeconds, waitBusy } from "./busy-retry";

/** What a public call answered: the JSON body (or the error's) and the status. */
export type PublicResult<T> =
  | { ok: true; status: number; data: T }
  | {
      ok: false;
      status: number;
      code: string | null;
      message: string | null;
      issues: { path: string; message: string }[];
    };

type PublicInit = {
  method?: string;
  json?: unknown;
  bytes?: Blob;
  /** The bytes' type (default application/pdf). */
  contentType?: string;
  signal?: AbortSignal;
};

/**
 * The page opened by "Assinar neste aparelho" (`?balcao=1`) sends the staff's locked session
 * cookie, so that the server can record the signature as presencial; every other public page
 * sends none.
 */
const sendsSession = () =>
  typeof window !== "undefined" && new URLSearchParams(window.location.search).get("balcao") === "1";

/**
 * fetch without the admin app's wrapper: no cookies needed, JSON or raw bytes in, JSON out. A 503
 * with Retry-After (the server turned the call away before doing anything, decision 040) is tried
 * again after a growing, spread-out wait, for up to BUSY_RETRY_BUDGET_MS; meanwhile the shell
 * says "aguarde". Then the 503 is returned like any other failure.
 */
export async function publicFetch<T>(path: string, init: PublicInit = {}): Promise<PublicResult<T>> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const result = await fetchOnce<T>(path, init);
    if (!result.retryAfter) return result.result;
    const delay = busyRetryDelayMs(attempt, result.retryAfter.seconds);
    if (Date.now() - started + delay > BUSY_RETRY_BUDGET_MS) return result.result;
    await waitBusy(delay, init.signal);
  }
}

async function fetchOnce<T>(
  path: string,
  init: PublicInit,
): Promise<{ result: PublicResult<T>; retryAfter?: { seconds: number } }> {
  let response: Response;
  try {
    const headers: Record<string, string> = { accept: "application/json" };
    let body: BodyInit | undefined;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.bytes) {
      headers["content-type"] = init.contentType ?? "application/pdf";
      body = init.bytes;
    }
    response = await fetch(path, {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      credentials: sendsSession() ? "same-origin" : "omit",
      referrerPolicy: "no-referrer",
      signal: init.signal,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    return { result: { ok: false, status: 0, code: "NETWORK", message: null, issues: [] } };
  }
  const busy = response.status === 503 && response.headers.has("retry-after");
  const retryAfter = busy ? { seconds: retryAfterSeconds(response.headers.get("retry-after")) } : undefined;
  return { result: await readResult<T>(response), retryAfter };
}

async function readResult<T>(response: Response): Promise<PublicResult<T>> {
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (response.ok) return { ok: true, status: response.status, data: data as T };
  const body = (data ?? {}) as { code?: unknown; message?: unknown; issues?: unknown };
  const issues = Array.isArray(body.issues)
    ? body.issues
        .filter((issue): issue is { path: unknown; message: string } => typeof issue?.message === "string")
        .map((issue) => ({
          path: Array.isArray(issue.path) ? issue.path.join(".") : String(issue.path ?? ""),
          message: issue.message,
        }))
    : [];
  return {
    ok: false,
    status: response.status,
    code: typeof body.code === "string" ? body.code : null,
    message: typeof body.message === "string" ? body.message : null,
    issues,
  };
}
