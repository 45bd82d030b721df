import { existsSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../src/db/client.js";
import { projectRoot } from "../../src/db/paths.js";
import { buildApp } from "../../src/server/app.js";
import { startFakeCepServer } from "../fakes/cep-server.js";
import { testEnv } from "../helpers/test-env.js";

/**
 * Starts the real app (built client, PGlite in memory, the fake postal services) on a free
 * port for the browser tests. `npm run test:e2e` builds the client first.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(path.join(projectRoot, "dist", "client", "index.html"))) {
    throw new Error("dist/client is missing: run `npm run build` (npm run test:e2e does it)");
  }
  const cep = await startFakeCepServer();
  const database = await openDatabase({ kind: "pglite-memory" });
  const app = await buildApp({
    env: testEnv({ VIACEP_URL: cep.url, BRASILAPI_URL: cep.url, WORKER: "true" }),
    database,
    logger: false,
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("no server address");
  project.provide("baseUrl", `http://127.0.0.1:${address.port}`);
  return async () => {
    await app.close();
    await database.close();
    await cep.close();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}
