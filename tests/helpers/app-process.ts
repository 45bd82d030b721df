/**
 * A real app process for crash tests (tests/integration/crash-recovery.test.ts), run with tsx:
 * the app on the database the environment names (DATABASE_URL, else file-backed PGlite under
 * DATA_DIR), listening on a free port of 127.0.0.1; it prints `{"port":…}` once ready.
 *
 * APP_PROCESS_MODE=stall: the app's own worker is off; a worker of this script takes due jobs
 * like the real one (same handlers, same leases and heartbeat) but its PDF renderer, after
 * rendering and sealing for real, prints `{"stalled":true}` and never returns — a process
 * caught between the last signature and the sealed PDF, ready to be killed with SIGKILL
 * (APP_PROCESS_STALL_SKIP=n: the first n signed renders return, e.g. the original before its
 * revocation record).
 * APP_PROCESS_MODE=serve: the app as `npm start` runs it (worker on when WORKER=true).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { openDatabase } from "../../src/db/client.js";
import { buildApp } from "../../src/server/app.js";
import { loadEnv } from "../../src/server/env.js";
import { jobHandlers } from "../../src/server/jobs/handlers.js";
import { createWorker } from "../../src/server/jobs/worker.js";
import { siteOrigin } from "../../src/server/lib/origin.js";
import type { PdfRenderer } from "../../src/server/pdf-pool/pdf-pool.js";

const say = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);

async function main(): Promise<void> {
  const mode = process.env.APP_PROCESS_MODE ?? "serve";
  const env = loadEnv({ ...process.env, ...(mode === "stall" ? { WORKER: "false" } : {}) });
  const database = env.DATABASE_URL
    ? await openDatabase({ kind: "postgres", url: env.DATABASE_URL, poolSize: 4 })
    : await openDatabase({
        kind: "pglite",
        dataDir: path.join(path.resolve(env.DATA_DIR), "pglite"),
        // The suite's migrated snapshot (pglite-snapshot-setup.ts): a new data directory skips initdb.
        ...(process.env.APP_PROCESS_PGLITE_SNAPSHOT
          ? { initial: new Blob([readFileSync(process.env.APP_PROCESS_PGLITE_SNAPSHOT)]) }
          : {}),
      });
  const app = await buildApp({ env, database, logger: false, pdfPool: { threads: 1 } });
  if (mode === "stall") {
    let passing = Number(process.env.APP_PROCESS_STALL_SKIP ?? "0");
    const stalling: PdfRenderer = {
      render: (...args) => app.pdfPool.render(...args),
      verify: (...args) => app.pdfPool.verify(...args),
      async renderAndSeal(...args) {
        await app.pdfPool.renderAndSeal(...args);
        say({ stalled: true });
        return new Promise<Buffer>(() => undefined);
      },
      // The final PDF job (and a choice record's) signs through renderAndSign: made, then never
      // returned (killed here) — after APP_PROCESS_STALL_SKIP calls that return normally.
      async renderAndSign(...args) {
        const pdf = await app.pdfPool.renderAndSign(...args);
        if (passing-- > 0) return pdf;
        say({ stalled: true });
        return new Promise<Buffer>(() => undefined);
      },
    };
    const { storage, secretBox } = app.services;
    createWorker(
      { db: database.db, storage, secretBox, env, origin: siteOrigin(env), log: app.log, pdf: stalling },
      jobHandlers,
      null,
      { idleMs: 100 },
    ).start();
  }
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  say({ port: typeof address === "object" && address ? address.port : 0 });
  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
