import { afterEach, describe, expect, it, vi } from "vitest";
import {
  BUSY_RETRY_BUDGET_MS,
  busyRetryDelayMs,
  busyWaits,
  MAX_RETRY_DELAY_MS,
  retryAfterSeconds,
  waitBusy,
} from "./busy-retry";
import { publicFetch } from "./http";

const busy = () =>
  new Response(
    JSON.stringify({
      code: "PUBLIC_BUSY",
      message: "Muitos acessos ao mesmo tempo. Aguarde alguns segundos e tente de novo.",
    }),
    {
      status: 503,
      headers: { "retry-after": "2", "content-type": "application/json" },
    },
  );
const ok = () =>
  new Response(JSON.stringify({ estado: "signed" }), { status: 200, headers: { "content-type": "application/json" } });

describe("busy retry (public pages)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("keeps the server's turn, spread over the second after it, and waits longer when turned away again", () => {
    // The turn the server gave, whole: 37 s is 37 to 38 s.
    expect(busyRetryDelayMs(0, 37, () => 0)).toBe(37_000);
    expect(busyRetryDelayMs(0, 37, () => 0.999)).toBe(37_999);
    // Short turns given again and again: at least 1, 2, 4, 8, then 16 s.
    expect(busyRetryDelayMs(0, 1, () => 0)).toBe(1000);
    expect(busyRetryDelayMs(1, 1, () => 0)).toBe(2000);
    expect(busyRetryDelayMs(2, 1, () => 0.5)).toBe(4500);
    expect(busyRetryDelayMs(3, 2, () => 0)).toBe(8000);
    expect(busyRetryDelayMs(10, 2, () => 0)).toBe(MAX_RETRY_DELAY_MS);
    // A longer turn than the floor wins over it.
    expect(busyRetryDelayMs(4, 30, () => 0)).toBe(30_000);
    // Retry-After 0 still waits a second.
    expect(busyRetryDelayMs(0, 0, () => 0)).toBe(1000);
  });

  it("reads Retry-After seconds; anything else counts as 1", () => {
    expect(retryAfterSeconds("3")).toBe(3);
    expect(retryAfterSeconds(" 0 ")).toBe(0);
    expect(retryAfterSeconds("Wed, 21 Oct 2026 07:28:00 GMT")).toBe(1);
    expect(retryAfterSeconds(null)).toBe(1);
    expect(retryAfterSeconds("-4")).toBe(1);
  });

  it("tries a busy call again by itself, saying it waits meanwhile, and returns the answer", async () => {
    vi.useFakeTimers();
    const fetch = vi.fn().mockResolvedValueOnce(busy()).mockResolvedValueOnce(busy()).mockResolvedValueOnce(ok());
    vi.stubGlobal("fetch", fetch);
    const seen: boolean[] = [];
    const stop = busyWaits.subscribe(() => seen.push(busyWaits.active()));

    const call = publicFetch<{ estado: string }>("/api/public/sign/abc", { method: "POST", json: { a: 1 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(busyWaits.active()).toBe(true);
    await vi.advanceTimersByTimeAsync(2000 + 4000);
    const result = await call;
    stop();

    expect(result).toEqual({ ok: true, status: 200, data: { estado: "signed" } });
    expect(fetch).toHaveBeenCalledTimes(3);
    // The same call each time (method and body).
    for (const [, init] of fetch.mock.calls)
      expect(init).toMatchObject({ method: "POST", body: JSON.stringify({ a: 1 }) });
    expect(seen).toEqual([true, false, true, false]);
    expect(busyWaits.active()).toBe(false);
  });

  it("gives up after the budget and returns the 503 as a failure", async () => {
    vi.useFakeTimers();
    const fetch = vi.fn().mockImplementation(async () => busy());
    vi.stubGlobal("fetch", fetch);
    const call = publicFetch("/api/public/sign/abc");
    await vi.advanceTimersByTimeAsync(BUSY_RETRY_BUDGET_MS + MAX_RETRY_DELAY_MS);
    const result = await call;
    expect(result).toMatchObject({ ok: false, status: 503, code: "PUBLIC_BUSY" });
    // Several tries, and no more than the budget allows once the waits reach the cap (1+2+4+8 s first).
    expect(fetch.mock.calls.length).toBeGreaterThan(5);
    expect(fetch.mock.calls.length).toBeLessThanOrEqual(4 + Math.ceil(BUSY_RETRY_BUDGET_MS / MAX_RETRY_DELAY_MS) + 1);
    expect(busyWaits.active()).toBe(false);
  });

  it("a 503 without Retry-After, and a 429, are not tried again", async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(new Response("{}", { status: 503 }))
      .mockResolvedValueOnce(
        new Response(JSON.stringify({ code: "RATE_LIMITED" }), { status: 429, headers: { "retry-after": "30" } }),
      );
    vi.stubGlobal("fetch", fetch);
    await expect(publicFetch("/x")).resolves.toMatchObject({ ok: false, status: 503 });
    await expect(publicFetch("/x")).resolves.toMatchObject({ ok: false, status: 429, code: "RATE_LIMITED" });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("an abort during the wait ends the call with AbortError and the wait is no longer counted", async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      "fetch",
      vi.fn().mockImplementation(async () => busy()),
    );
    const controller = new AbortController();
    const call = publicFetch("/api/public/sign/abc/signed-pdf", { method: "HEAD", signal: controller.signal });
    const settled = call.catch((error: Error) => error.name);
    await vi.advanceTimersByTimeAsync(0);
    expect(busyWaits.active()).toBe(true);
    controller.abort();
    await expect(settled).resolves.toBe("AbortError");
    expect(busyWaits.active()).toBe(false);
    await expect(waitBusy(10, controller.signal)).rejects.toMatchObject({ name: "AbortError" });
  });
});
