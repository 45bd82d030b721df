import {
  BUSY_RETRY_BUDGET_MS,
  busyRetryDelayMs,
  retryAfterSeconds,
} from "../../src/client/public-pages/lib/busy-retry.js";

export interface ServedCall {
  response: Response;
  text: string;
  /** How many 503 + Retry-After answers came before this one (the "aguarde" of the page). */
  turnedAway: number;
}

/**
 * One public call as the signing page makes it (src/client/public-pages/lib/http.ts): a 503 with
 * Retry-After is waited out — the server's turn, growing floors, a spread — and sent again, for up to
 * the page's budget; the last answer is returned whatever it is. `send` gets the attempt number
 * (a cluster bench picks a web process by it).
 */
export async function callAsThePage(send: (attempt: number) => Promise<Response>): Promise<ServedCall> {
  const first = performance.now();
  for (let attempt = 0; ; attempt++) {
    const response = await send(attempt);
    const text = await response.text();
    if (response.status !== 503 || !response.headers.has("retry-after")) return { response, text, turnedAway: attempt };
    const delay = busyRetryDelayMs(attempt, retryAfterSeconds(response.headers.get("retry-after")));
    if (performance.now() - first + delay > BUSY_RETRY_BUDGET_MS) return { response, text, turnedAway: attempt + 1 };
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
