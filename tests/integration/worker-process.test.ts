import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { enqueueJob } from "../../src/server/jobs/enqueue-job.js";
import { loadEnv } from "../../src/server/env.js";
import { nodeEntryArgs } from "../helpers/node-entry.js";
import { type NodeProcess, spawnSource, waitFor } from "../helpers/server-process.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * `npm run worker`: a process with no HTTP that runs the background work on the
 * shared PostgreSQL, while web processes run with WORKER=false. On embedded PGlite (one process's
 * database) it refuses to start and says why.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

/** The file of the innermost frame of what `run` throws, as V8 has it (before source maps). */
function fileOfFrame(run: () => unknown): string | undefined {
  const original = Error.prepareStackTrace;
  Error.prepareStackTrace = (_error, frames) => frames;
  try {
    run();
  } catch (error) {
    return ((error as { stack: unknown }).stack as NodeJS.CallSite[])[0]?.getFileName() ?? undefined;
  } finally {
    Error.prepareStackTrace = original;
  }
  return undefined;
}

function startWorker(env: Record<string, string>): NodeProcess {
  return spawnSource("src/server/worker-main.ts", {
    LOG_LEVEL: "info",
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "consentir-worker-")),
    ...env,
  });
}

describe("npm run worker", () => {
  it("is started, like every entry point the suite runs in a child, from the suite's compiled files", () => {
    // Through tsx each child spent ~3 CPU-s importing the app (decision 039).
    const args = nodeEntryArgs("src/server/worker-main.ts");
    expect(args).toHaveLength(1);
    expect(args[0]).toMatch(/consentir-compiled-[^/]+\/src\/server\/worker-main\.js$/);
    expect(existsSync(args[0]!)).toBe(true);
    // The tests themselves import that same compiled code, loaded by Node (~1 s per file, not ~2.7 s).
    expect(fileOfFrame(() => loadEnv({ NODE_ENV: "production", PORT: "x" }))).toMatch(
      /^file:\/\/.*\/consentir-compiled-[^/]+\/src\/server\/env\.js$/,
    );
  });

  it("runs the queued jobs on PostgreSQL with no HTTP port; on PGlite refuses to start, in Portuguese", async () => {
    if (ctx.database.kind !== "postgres") {
      const worker = startWorker({});
      expect(await worker.exited).toBe("1");
      expect(worker.output()).toContain("npm run worker precisa de DATABASE_URL (PostgreSQL)");
      return;
    }
    const url = process.env.TEST_DATABASE_URL ?? "";
    await enqueueJob(ctx.database.db, { kind: "documents.expire", payload: {} });
    const [job] = await rawRows<{ id: string }>(
      ctx.database.db,
      sql`select id from jobs where kind = 'documents.expire' order by created_at desc limit 1`,
    );
    const worker = startWorker({ DATABASE_URL: url });
    try {
      await waitFor(
        "o worker terminar a tarefa",
        async () =>
          (await rawRows<{ status: string }>(ctx.database.db, sql`select status from jobs where id = ${job!.id}`))[0]
            ?.status === "done",
        60_000,
        100,
      );
      expect(worker.output()).toContain("worker started (no HTTP)");
      expect(worker.output()).not.toMatch(/Server listening/);
    } finally {
      worker.kill("SIGTERM");
      expect(await worker.exited).toBe("0");
    }
  }, 120_000);
});
