import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";

/**
 * The database the integration suite runs on: embedded PGlite (in memory, started from the
 * migrated snapshot made by pglite-snapshot-setup.ts) by default, the PostgreSQL at
 * TEST_DATABASE_URL in the `integration-postgres` project (CI sets it).
 * Tests never mock our own database. PGlite runs on the test's own thread unless
 * TEST_PGLITE_THREAD=1 or `thread: true` (the app runs it in a thread of its own, decision 038: that
 * transport has its own tests, and the suite's tests that open a data dir, start the app or measure
 * the event loop use it).
 */
export async function openTestDatabase(options: { thread?: boolean } = {}): Promise<Database> {
  if (process.env.TEST_DB === "postgres") {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
    return openDatabase({ kind: "postgres", url, poolSize: 4 });
  }
  const snapshotFile = inject("pgliteSnapshot");
  const snapshot = snapshotFile ? new Blob([readFileSync(snapshotFile)]) : undefined;
  return openDatabase({
    kind: "pglite-memory",
    snapshot,
    thread: options.thread ?? process.env.TEST_PGLITE_THREAD === "1",
  });
}
