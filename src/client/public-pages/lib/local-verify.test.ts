import { describe, expect, it } from "vitest";
import { LOCAL_FAILURE, MAX_LOCAL_PDF_BYTES } from "@shared/verification/verdict-text";
import { verifyLocally } from "./local-verify";

/** A worker stand-in: records what it was sent and whether it was ended; answers as told. */
function fakeWorker(answer: (worker: FakeWorker) => void) {
  const made: FakeWorker[] = [];
  return {
    made,
    makeWorker: () => {
      const worker = new FakeWorker(answer);
      made.push(worker);
      return worker as unknown as Worker;
    },
  };
}

class FakeWorker {
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  posted: unknown[] = [];
  terminated = false;
  constructor(private readonly answer: (worker: FakeWorker) => void) {}
  postMessage(data: unknown) {
    this.posted.push(data);
    this.answer(this);
  }
  terminate() {
    this.terminated = true;
  }
}

describe("verifyLocally (decision 077)", () => {
  it("a worker that never answers is terminated at the time limit, with a pt-BR verdict", async () => {
    const workers = fakeWorker(() => {});
    const started = Date.now();
    const result = await verifyLocally(new Blob([new Uint8Array(10)]), {
      makeWorker: workers.makeWorker,
      timeoutMs: 50,
    });
    expect(result).toEqual({ kind: "failed", message: LOCAL_FAILURE.timeout });
    expect(result.kind === "failed" && result.message).toMatch(/^Não foi possível verificar este arquivo a tempo/);
    expect(workers.made[0]!.terminated).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a file over the cap is refused before any worker starts", async () => {
    const workers = fakeWorker(() => {});
    const big = { size: MAX_LOCAL_PDF_BYTES + 1, arrayBuffer: () => Promise.reject(new Error("lido")) } as Blob;
    expect(await verifyLocally(big, { makeWorker: workers.makeWorker })).toEqual({
      kind: "failed",
      message: LOCAL_FAILURE.tooLarge,
    });
    expect(workers.made).toHaveLength(0);
  });

  it("a worker that crashes gives the unreadable verdict; an answer is passed on; each worker is ended", async () => {
    const crashing = fakeWorker((w) => queueMicrotask(() => w.onerror?.({ preventDefault() {} } as ErrorEvent)));
    expect(await verifyLocally(new Blob(["x"]), { makeWorker: crashing.makeWorker })).toEqual({
      kind: "failed",
      message: LOCAL_FAILURE.unreadable,
    });
    expect(crashing.made[0]!.terminated).toBe(true);
    const answering = fakeWorker((w) =>
      queueMicrotask(() => w.onmessage?.({ data: { kind: "failed", message: "m" } } as MessageEvent)),
    );
    expect(await verifyLocally(new Blob(["%PDF"]), { makeWorker: answering.makeWorker })).toEqual({
      kind: "failed",
      message: "m",
    });
    expect(answering.made[0]!.posted[0]).toBeInstanceOf(ArrayBuffer);
    expect(answering.made[0]!.terminated).toBe(true);
  });
});
