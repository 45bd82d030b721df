import { describe, expect, it } from "vitest";
import { BULK_MAX_WAIT_MS, PriorityLock } from "./remote-pglite.js";

/** Acquires and records the order in which holders got the lock. */
function recorder(lock: PriorityLock, order: string[]) {
  return (name: string, bulk: boolean) =>
    lock.acquire(bulk).then((release) => {
      order.push(name);
      return release;
    });
}

describe("PriorityLock (PGlite's one session: interactive calls first, bulk work not starved)", () => {
  it("gives the lock to a waiting interactive caller before bulk work that waited longer", async () => {
    let clock = 0;
    const lock = new PriorityLock(() => clock);
    const order: string[] = [];
    const take = recorder(lock, order);
    const first = await take("bulk-holder", true);
    const bulkWaiting = take("bulk-waiting", true);
    clock += 10;
    const interactive = take("interactive", false);
    first();
    (await interactive)();
    (await bulkWaiting)();
    expect(order).toEqual(["bulk-holder", "interactive", "bulk-waiting"]);
  });

  it("keeps arrival order within a line", async () => {
    const lock = new PriorityLock(() => 0);
    const order: string[] = [];
    const take = recorder(lock, order);
    const holder = await take("holder", false);
    const waiters = [take("a", false), take("b", false), take("c", true), take("d", true)];
    holder();
    for (const waiter of waiters) (await waiter)();
    expect(order).toEqual(["holder", "a", "b", "c", "d"]);
  });

  it(`lets bulk work go first once it has waited ${BULK_MAX_WAIT_MS} ms`, async () => {
    let clock = 0;
    const lock = new PriorityLock(() => clock);
    const order: string[] = [];
    const take = recorder(lock, order);
    const holder = await take("holder", false);
    const bulk = take("bulk", true);
    const interactive = take("interactive", false);
    clock += BULK_MAX_WAIT_MS;
    holder();
    (await bulk)();
    (await interactive)();
    expect(order).toEqual(["holder", "bulk", "interactive"]);
  });

  it("a release called twice hands the lock over once", async () => {
    const lock = new PriorityLock(() => 0);
    const order: string[] = [];
    const take = recorder(lock, order);
    const holder = await take("holder", false);
    const a = take("a", false);
    const b = take("b", false);
    holder();
    holder();
    const releaseA = await a;
    let bHeld = false;
    void b.then(() => (bHeld = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(bHeld).toBe(false);
    releaseA();
    (await b)();
    expect(order).toEqual(["holder", "a", "b"]);
  });
});
