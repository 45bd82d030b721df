import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { asBulkDatabaseWork } from "../database-priority.js";
import { RemotePglite } from "./remote-pglite.js";

/** One thread for the tests that need only a database (each its own tables); others start their own. */
let shared: RemotePglite;
beforeAll(async () => {
  shared = await RemotePglite.start({});
});
afterAll(async () => {
  await shared.close();
});

const opened: RemotePglite[] = [];
async function start(loadDataDir?: ArrayBuffer): Promise<RemotePglite> {
  const client = await RemotePglite.start({ loadDataDir });
  opened.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});

describe("RemotePglite (PGlite in its own thread)", () => {
  it("answers queries with rows as objects or arrays, and keeps the text of the types asked", async () => {
    const client = shared;
    const objects = await client.query<{ n: number; t: string }>("select $1::int as n, $2::text as t", [41, "olá"]);
    expect(objects.rows).toEqual([{ n: 41, t: "olá" }]);
    const arrays = await client.query("select 1 + 1, 'x'", [], { rowMode: "array" });
    expect(arrays.rows).toEqual([[2, "x"]]);
    const parsed = await client.query<{ at: unknown }>("select timestamptz '2026-11-26 12:00:00+00' as at");
    expect(parsed.rows[0]!.at).toBeInstanceOf(Date);
    const text = await client.query<{ at: unknown }>("select timestamptz '2026-11-26 12:00:00+00' as at", [], {
      parsers: { 1184: (value) => value },
    });
    expect(typeof text.rows[0]!.at).toBe("string");
    const bytes = await client.query<{ b: Uint8Array }>("select $1::bytea as b", [new Uint8Array([1, 2, 255])]);
    expect(Array.from(bytes.rows[0]!.b)).toEqual([1, 2, 255]);
  });

  it("keeps a transaction whole: a statement from outside waits for its COMMIT", async () => {
    const client = shared;
    await client.exec("create table t (n int)");
    const order: string[] = [];
    let inside!: () => void;
    const insideStarted = new Promise<void>((resolve) => (inside = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query("insert into t values (1)");
      inside();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.query("insert into t values (2)");
      order.push("commit");
    });
    await insideStarted;
    const outside = client.query<{ count: number }>("select count(*)::int as count from t").then((result) => {
      order.push("outside");
      return result.rows[0]!.count;
    });
    await transaction;
    expect(await outside).toBe(2);
    expect(order).toEqual(["commit", "outside"]);
  });

  it("rolls back when the work throws, and an error keeps PostgreSQL's code and constraint", async () => {
    const client = shared;
    await client.exec("create table u (id int constraint u_pk primary key)");
    await expect(
      client.transaction(async (tx) => {
        await tx.query("insert into u values (1)");
        throw new Error("desisto");
      }),
    ).rejects.toThrow("desisto");
    expect((await client.query<{ c: number }>("select count(*)::int as c from u")).rows[0]!.c).toBe(0);
    await client.query("insert into u values (7)");
    const error = await client.query("insert into u values (7)").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: "23505", constraint: "u_pk" });
    // The session is usable after a failed statement inside a transaction, too.
    await expect(client.transaction((tx) => tx.query("insert into u values (7)"))).rejects.toMatchObject({
      code: "23505",
    });
    expect((await client.query<{ c: number }>("select count(*)::int as c from u")).rows[0]!.c).toBe(1);
  });

  it("delivers NOTIFY after the commit, and stops after unlisten", async () => {
    const client = shared;
    const payloads: string[] = [];
    const unlisten = await client.listen("canal", (payload) => payloads.push(payload));
    await client.transaction(async (tx) => {
      await tx.query("select pg_notify('canal', 'um')");
      expect(payloads).toEqual([]);
    });
    await expect.poll(() => payloads).toEqual(["um"]);
    await unlisten();
    await client.query("select pg_notify('canal', 'dois')");
    await client.query("select 1");
    expect(payloads).toEqual(["um"]);
  });

  it("dumps its data dir and a new thread starts from the dump", async () => {
    const first = await start();
    await first.exec("create table kept (v text); insert into kept values ('guardado')");
    const dump = await first.dumpDataDir();
    const second = await start(await dump.arrayBuffer());
    expect((await second.query<{ v: string }>("select v from kept")).rows).toEqual([{ v: "guardado" }]);
  });

  it("fails pending and later calls with a clear error when the thread dies", async () => {
    const client = await start();
    const worker = (client as unknown as { worker: { terminate(): Promise<number> } }).worker;
    const pending = client.query("select pg_sleep(0.2)");
    await worker.terminate();
    await expect(pending).rejects.toThrow(/thread do banco de dados terminou/);
    await expect(client.query("select 1")).rejects.toThrow(/thread do banco de dados terminou/);
  });
});

describe("RemotePglite and bulk database work (decision 038)", () => {
  it("lets an interactive statement pass bulk work that is waiting for the session", async () => {
    const client = shared;
    const order: string[] = [];
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const holder = client.transaction(async (tx) => {
      await tx.query("select 1");
      holding();
      await finished;
    });
    await held;
    const bulk = asBulkDatabaseWork(() => client.query("select 'bulk'").then(() => order.push("bulk")));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const interactive = client.query("select 'interactive'").then(() => order.push("interactive"));
    finish();
    await Promise.all([holder, bulk, interactive]);
    expect(order).toEqual(["interactive", "bulk"]);
  });
});
