import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { countRequest } from "../../src/server/plugins/rate-limit-store.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * the per-route rate limits are counted in the database, so two web processes on one
 * database allow the limit once, not once each. Two apps on one database stand for the processes.
 */
let first: TestContext;
let second: TestContext;
const LIMIT = "5";

beforeAll(async () => {
  first = await createTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: LIMIT } });
  second = await createTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: LIMIT }, database: first.database });
});
afterAll(async () => {
  await second.close();
  await first.close();
});

// A client address of its own, so no other test's requests count here.
const fromIp = (ctx: TestContext, ip: string) =>
  ctx.app.inject({ method: "GET", url: "/api/public/verify/NAOEXISTE", remoteAddress: ip });

describe("rate limits shared by every process", () => {
  it("counts one client's requests to both apps together, answers 429 in Portuguese, and counts others apart", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await fromIp(i % 2 === 0 ? first : second, ip)).statusCode);
    // Five answers (404: no such code), then the sixth is refused, whichever app it reaches.
    expect(statuses.slice(0, 5).every((s) => s === 404)).toBe(true);
    const refused = await fromIp(second, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: "RATE_LIMITED" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(statuses[5]).toBe(429);
    // Another client is not affected.
    expect((await fromIp(first, "203.0.113.250")).statusCode).toBe(404);
    // The client's address is not stored as such.
    const keys = await rawRows<{ key: string }>(first.database.db, sql`select key from rate_limit_counters`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => /^[0-9a-f]{64}$/.test(k.key))).toBe(true);
  });

  it("counts several limits in one statement, in order: after the first exceeded one, the later are not counted", async () => {
    const run = crypto.randomUUID();
    const rules = [
      { namespace: "teste", key: `a:${run}`, max: 2, timeWindow: 60_000 },
      { namespace: "teste", key: `b:${run}`, max: 10, timeWindow: 60_000 },
    ];
    const seen = [];
    for (let i = 0; i < 4; i++)
      seen.push((await countRequest(first.database.db, rules)).map((c) => c?.current ?? null));
    expect(seen).toEqual([
      [1, 1],
      [2, 2],
      [3, null],
      [4, null],
    ]);
    // A window that ended starts again at 1; the time left comes back in milliseconds.
    const short = [{ namespace: "teste", key: `c:${run}`, max: 5, timeWindow: 50 }];
    expect((await countRequest(first.database.db, short))[0]).toMatchObject({ current: 1 });
    await new Promise((resolve) => setTimeout(resolve, 80));
    const [again] = await countRequest(first.database.db, short);
    expect(again?.current).toBe(1);
    expect(again?.ttl).toBeGreaterThan(0);
    expect(again?.ttl).toBeLessThanOrEqual(50);
  });

  it("holds under a burst: of 20 requests at once over both apps, exactly the limit passes", async () => {
    const ip = `192.0.2.${Math.floor(Math.random() * 200) + 1}`;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => fromIp(i % 2 === 0 ? first : second, ip)));
    const passed = answers.filter((a) => a.statusCode === 404).length;
    expect(passed).toBe(Number(LIMIT));
    expect(answers.filter((a) => a.statusCode === 429).length).toBe(20 - Number(LIMIT));
  });
});
