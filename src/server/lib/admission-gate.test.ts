import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COME_BACK_MAX_MS, COME_BACK_MIN_MS, createAdmissionGate } from "./admission-gate";

describe("admission gate", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("admits up to maxInFlight at once and gives a freed place to the longest waiting", async () => {
    const gate = createAdmissionGate({ maxInFlight: 2, maxWaiting: 5, maxWaitMs: 1000 });
    const first = await gate.enter();
    const second = await gate.enter();
    expect(first).toBeTypeOf("function");
    expect(second).toBeTypeOf("function");
    expect(gate.inFlight).toBe(2);

    const order: string[] = [];
    const third = gate.enter().then((release) => (order.push("third"), release));
    const fourth = gate.enter().then((release) => (order.push("fourth"), release));
    await Promise.resolve();
    expect(gate.waiting).toBe(2);
    expect(order).toEqual([]);

    first!();
    const thirdRelease = await third;
    expect(order).toEqual(["third"]);
    expect(gate.inFlight).toBe(2);
    expect(gate.waiting).toBe(1);

    second!();
    await fourth;
    expect(order).toEqual(["third", "fourth"]);
    expect(gate.waiting).toBe(0);
    thirdRelease!();
    expect(gate.inFlight).toBe(1);
  });

  it("a release called twice frees one place only", async () => {
    const gate = createAdmissionGate({ maxInFlight: 2, maxWaiting: 0, maxWaitMs: 0 });
    const a = await gate.enter();
    await gate.enter();
    a!();
    a!();
    expect(gate.inFlight).toBe(1);
  });

  it("turns a request away at once when the queue is full, and says so beforehand (full)", async () => {
    const gate = createAdmissionGate({ maxInFlight: 1, maxWaiting: 1, maxWaitMs: 1000 });
    expect(gate.full).toBe(false);
    await gate.enter();
    // A place is taken but one may still wait.
    expect(gate.full).toBe(false);
    const waiting = gate.enter();
    expect(gate.full).toBe(true);
    await expect(gate.enter()).resolves.toBeNull();
    expect(gate.waiting).toBe(1);
    void waiting;
  });

  it("turns a waiting request away when its wait runs out, and it takes no place after", async () => {
    const gate = createAdmissionGate({ maxInFlight: 1, maxWaiting: 4, maxWaitMs: 500 });
    const holder = await gate.enter();
    const waiting = gate.enter();
    await vi.advanceTimersByTimeAsync(499);
    expect(gate.waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(waiting).resolves.toBeNull();
    expect(gate.waiting).toBe(0);
    holder!();
    expect(gate.inFlight).toBe(0);
  });

  it("a waiting request whose client left is dropped from the queue", async () => {
    const gate = createAdmissionGate({ maxInFlight: 1, maxWaiting: 4, maxWaitMs: 10_000 });
    const holder = await gate.enter();
    const controller = new AbortController();
    const gone = gate.enter(controller.signal);
    const next = gate.enter();
    controller.abort();
    await expect(gone).resolves.toBeNull();
    expect(gate.waiting).toBe(1);
    holder!();
    await expect(next).resolves.toBeTypeOf("function");
    expect(gate.inFlight).toBe(1);
  });

  it("a newcomer does not overtake those waiting", async () => {
    const gate = createAdmissionGate({ maxInFlight: 1, maxWaiting: 4, maxWaitMs: 10_000 });
    const holder = await gate.enter();
    const waiting = gate.enter();
    holder!();
    // The place went to the waiting request, so a newcomer now waits too.
    const newcomer = gate.enter();
    await expect(waiting).resolves.toBeTypeOf("function");
    expect(gate.waiting).toBe(1);
    void newcomer;
  });

  it("with maxInFlight 0 there is no gate", async () => {
    const gate = createAdmissionGate({ maxInFlight: 0, maxWaiting: 0, maxWaitMs: 0 });
    const releases = await Promise.all(Array.from({ length: 50 }, () => gate.enter()));
    expect(releases.every((release) => typeof release === "function")).toBe(true);
    expect(gate.inFlight).toBe(0);
    expect(gate.full).toBe(false);
  });

  it("without a queue, a request past the places is turned away without waiting", async () => {
    const gate = createAdmissionGate({ maxInFlight: 1, maxWaiting: 0, maxWaitMs: 1000 });
    await gate.enter();
    expect(gate.full).toBe(true);
    await expect(gate.enter()).resolves.toBeNull();
  });

  describe("steps of something begun (continuing) before newcomers", () => {
    it("a freed place goes to the longest waiting continuing request, even past newcomers who came first", async () => {
      const gate = createAdmissionGate({ maxInFlight: 1, maxWaiting: 4, maxWaitMs: 1000 });
      const first = await gate.enter();
      const order: string[] = [];
      const enterAs = (name: string, kind: "new" | "continuing") =>
        gate.enter(undefined, kind).then((release) => {
          order.push(name);
          return release;
        });
      const newcomer = enterAs("abre-1", "new");
      const newcomer2 = enterAs("abre-2", "new");
      const signing = enterAs("assina", "continuing");
      const code = enterAs("codigo", "continuing");
      await Promise.resolve();
      first!();
      (await signing)!();
      (await code)!();
      (await newcomer)!();
      (await newcomer2)!();
      expect(order).toEqual(["assina", "codigo", "abre-1", "abre-2"]);
      expect(gate.inFlight).toBe(0);
    });

    it("when newcomers are turned away, a continuing request may still wait (up to maxWaiting of its own)", async () => {
      const gate = createAdmissionGate({ maxInFlight: 1, maxWaiting: 1, maxWaitMs: 1000 });
      const first = await gate.enter();
      const waitingNewcomer = gate.enter();
      expect(gate.full).toBe(true);
      expect(gate.turnsAway("new")).toBe(true);
      expect(gate.turnsAway("continuing")).toBe(false);
      await expect(gate.enter(undefined, "new")).resolves.toBeNull();
      const continuing = gate.enter(undefined, "continuing");
      expect(gate.waiting).toBe(2);
      expect(gate.turnsAway("continuing")).toBe(true);
      await expect(gate.enter(undefined, "continuing")).resolves.toBeNull();
      first!();
      const admitted = await continuing;
      expect(admitted).toBeTypeOf("function");
      admitted!();
      (await waitingNewcomer)!();
      expect(gate.inFlight).toBe(0);
    });
  });

  describe("the turn given to a request turned away (comeBackInMs)", () => {
    it("gives each the next turn, at the pace the places are served, from a second away", () => {
      let now = 0;
      const gate = createAdmissionGate({ maxInFlight: 2, maxWaiting: 0, maxWaitMs: 0 }, () => now);
      // Before any request is measured a place serves in 50 ms: two places, a turn every 25 ms.
      expect([gate.comeBackInMs(), gate.comeBackInMs(), gate.comeBackInMs()]).toEqual([
        COME_BACK_MIN_MS,
        COME_BACK_MIN_MS + 25,
        COME_BACK_MIN_MS + 50,
      ]);
      // 40 ms later the schedule goes on where it was (the next turn is at 1,075 ms) ...
      now = 40;
      expect(gate.comeBackInMs()).toBe(1075 - 40);
      // ... and once its turns are past, it starts again a second away.
      now = 5000;
      expect(gate.comeBackInMs()).toBe(COME_BACK_MIN_MS);
    });

    it("follows the measured time in a place (moving average)", async () => {
      let now = 0;
      const gate = createAdmissionGate({ maxInFlight: 1, maxWaiting: 0, maxWaitMs: 0 }, () => now);
      const release = await gate.enter();
      now = 550;
      release!();
      // 50 + 0.1 × (550 − 50) = 100 ms a request, one place: a turn every 100 ms.
      expect(gate.serviceMs).toBeCloseTo(100, 6);
      expect([gate.comeBackInMs(), gate.comeBackInMs()]).toEqual([COME_BACK_MIN_MS, COME_BACK_MIN_MS + 100]);
    });

    it("two thousand turned away together come back spread over the time it takes to serve them, never past the cap", async () => {
      let now = 0;
      const gate = createAdmissionGate({ maxInFlight: 8, maxWaiting: 32, maxWaitMs: 500 }, () => now);
      // Requests that took 400 ms each under load: 8 places serve one every 50 ms.
      for (let i = 0; i < 50; i++) {
        const release = await gate.enter();
        now += 400;
        release!();
      }
      const pace = gate.serviceMs / 8;
      const turns = Array.from({ length: 2000 }, () => gate.comeBackInMs());
      for (let i = 1; i < turns.length; i++) expect(turns[i]!).toBeGreaterThanOrEqual(turns[i - 1]!);
      expect(turns[0]).toBe(COME_BACK_MIN_MS);
      expect(turns[99]).toBeCloseTo(COME_BACK_MIN_MS + 99 * pace, -1);
      expect(Math.max(...turns)).toBe(COME_BACK_MAX_MS);
    });
  });
});
