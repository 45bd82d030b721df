import path from "node:path";
import { type Database, openDatabase } from "../db/client.js";
import { buildApp } from "./app.js";
import { dumpPgliteDataDir } from "./backup/create-backup.js";
import { serveAppSnapshots, type SnapshotSocketServer } from "./backup/snapshot-socket.js";
import { EnvError, loadEnv } from "./env.js";

async function main(): Promise<void> {
  let env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database: Database = env.DATABASE_URL
    ? await openDatabase({ kind: "postgres", url: env.DATABASE_URL })
    : await openDatabase({ kind: "pglite", dataDir: path.join(path.resolve(env.DATA_DIR), "pglite") });

  const app = await buildApp({ env, database });
  // Embedded PGlite: `npm run backup` asks this process for a copy of the data dir (decision 027).
  // Without the socket (a filesystem that has none) the app still runs; backups then need it stopped.
  const backupSocket: SnapshotSocketServer | null =
    database.kind === "pglite"
      ? await serveAppSnapshots(env.DATA_DIR, app.services.secretBox, () => dumpPgliteDataDir(database), app.log).catch(
          (error: unknown) => {
            app.log.warn({ err: error }, "backup socket not available: npm run backup needs the app stopped");
            return null;
          },
        )
      : null;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      app.log.error("shutdown took too long; exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await backupSocket?.close();
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "error during shutdown");
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: env.PORT, host: env.HOST });
  app.log.info(
    { url: `http://localhost:${env.PORT}`, database: database.kind },
    `Consentir no ar em http://localhost:${env.PORT}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
