/**
 * `npm run worker`: a process that runs only the background work — jobs (final PDFs,
 * e-mail, Feegow uploads, SMS), the expiry sweep, audit anchors, the daily backup — and serves no
 * HTTP. Web processes then run with WORKER=false. Jobs are claimed with FOR UPDATE SKIP LOCKED
 * and leases (decision 013), so any number of workers can share one PostgreSQL.
 *
 * Embedded PGlite is one process's database: there the app itself runs the worker.
 */
import { openDatabase } from "../db/client.js";
import { buildApp } from "./app.js";
import { EnvError, loadEnv } from "./env.js";

async function main(): Promise<void> {
  let env;
  try {
    env = loadEnv({ ...process.env, WORKER: "true" });
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (!env.DATABASE_URL) {
    console.error(
      "npm run worker precisa de DATABASE_URL (PostgreSQL). Com o banco embutido (PGlite), o próprio app (npm start) roda as tarefas em segundo plano.",
    );
    process.exit(1);
  }
  const database = await openDatabase({ kind: "postgres", url: env.DATABASE_URL });
  const app = await buildApp({ env, database });
  // Ready starts the worker (app.ts: onReady when env.WORKER); nothing listens on a port.
  await app.ready();
  app.log.info({ database: database.kind }, "worker started (no HTTP)");

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "worker stopping");
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "error while stopping the worker");
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

void main();
