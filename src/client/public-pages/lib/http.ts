/** What a public call answered: the JSON body (or the error's) and the status. */
export type PublicResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; code: string | null; message: string | null; issues: { path: string; message: string }[] };

/** fetch without the admin app's wrapper: no cookies needed, JSON or raw bytes in, JSON out. */
export async function publicFetch<T>(
  path: string,
  init: { method?: string; json?: unknown; bytes?: Blob; signal?: AbortSignal } = {},
): Promise<PublicResult<T>> {
  let response: Response;
  try {
    const headers: Record<string, string> = { accept: "application/json" };
    let body: BodyInit | undefined;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.bytes) {
      headers["content-type"] = "application/pdf";
      body = init.bytes;
    }
    response = await fetch(path, {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      credentials: "omit",
      referrerPolicy: "no-referrer",
      signal: init.signal,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    return { ok: false, status: 0, code: "NETWORK", message: null, issues: [] };
  }
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
        .map((issue) => ({ path: Array.isArray(issue.path) ? issue.path.join(".") : String(issue.path ?? ""), message: issue.message }))
    : [];
  return {
    ok: false,
    status: response.status,
    code: typeof body.code === "string" ? body.code : null,
    message: typeof body.message === "string" ? body.message : null,
    issues,
  };
}
