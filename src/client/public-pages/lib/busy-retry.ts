/**
 * When the server is too busy (decision 040) it answers 503 with Retry-After before doing anything,
 * and the public pages wait and try the same call again by themselves: the patient sees "aguarde",
 * not an error. The server gives each page turned away its own turn (Retry-After grows with the
 * queue, decision 044); the page keeps it, spread over the second after it (the header counts whole
 * seconds), and, turned away again and again, waits at least 1, 2, 4, 8, then 16 s, in case the
 * server's turns run short.
 */
export const MAX_RETRY_DELAY_MS = 16_000;
/** Past this long of trying, the call's own error shows (with its "Tentar novamente"). */
export const BUSY_RETRY_BUDGET_MS = 180_000;
/** Waits are spread at random over this much after the turn. */
const SPREAD_MS = 1000;

/** The wait before try `attempt + 1` (attempt 0: the first retry). */
export function busyRetryDelayMs(
  attempt: number,
  retryAfterSeconds: number,
  random: () => number = Math.random,
): number {
  const floor = Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** Math.max(0, attempt));
  return Math.round(Math.max(retryAfterSeconds * 1000, floor) + random() * SPREAD_MS);
}

/** Retry-After in seconds (delay-seconds form; an HTTP date or garbage counts as 1). */
export function retryAfterSeconds(header: string | null): number {
  const seconds = header === null ? Number.NaN : Number(header.trim());
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : 1;
}

let waiting = 0;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/** Whether any call is waiting to try again now (for the shell's "aguarde" notice). */
export const busyWaits = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  active: (): boolean => waiting > 0,
};

/** Waits `ms` (counted as a busy wait); rejects with AbortError if `signal` aborts first. */
export function waitBusy(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException("aborted", "AbortError"));
    waiting += 1;
    notify();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      waiting -= 1;
      notify();
    };
    const onAbort = () => {
      done();
      reject(new DOMException("aborted", "AbortError"));
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
