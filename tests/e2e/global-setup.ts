import { existsSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../src/db/client.js";
import { projectRoot } from "../../src/db/paths.js";
import { buildApp } from "../../src/server/app.js";
import { startFakeCepServer } from "../fakes/cep-server.js";
import { startFakeFeegowServer } from "../fakes/feegow-server.js";
import { envSchema } from "../../src/server/env.js";
import { testEnv } from "../helpers/test-env.js";
import { freePort } from "../helpers/server-process.js";
import { e2eLanes } from "./lanes.js";

/**
 * Starts the real app (built client, PGlite in memory, the fake postal services and Feegow) on a free
 * port for the browser tests, once per lane: each vitest fork drives its own server and database, so
 * two files running side by side never share a clinic, a gate or a fake. `npm run test:e2e` builds
 * the client first.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(path.join(projectRoot, "dist", "client", "index.html"))) {
    throw new Error("dist/client is missing: run `npm run build` (npm run test:e2e does it)");
  }
  const lanes = await Promise.all(Array.from({ length: e2eLanes() }, () => startLane()));
  project.provide(
    "baseUrls",
    lanes.map((lane) => lane.baseUrl),
  );
  return async () => {
    await Promise.all(lanes.map((lane) => lane.close()));
  };
}

async function startLane(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const cep = await startFakeCepServer();
  const feegow = await startFakeFeegowServer();
  const database = await openDatabase({ kind: "pglite-memory" });
  // Links (signing, QR) come from PUBLIC_URL, so the port is chosen before the app is built.
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = await buildApp({
    env: testEnv({
      VIACEP_URL: cep.url,
      BRASILAPI_URL: cep.url,
      FEEGOW_URL: feegow.url,
      WORKER: "true",
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      // The webhooks test's receiver listens on 127.0.0.1, which deliveries refuse otherwise (decision 062).
      WEBHOOKS_ALLOW_PRIVATE: "true",
      // The public routes' admission gate as shipped (decision 040), not the integration tests' "off".
      PUBLIC_MAX_IN_FLIGHT: String(envSchema.shape.PUBLIC_MAX_IN_FLIGHT.parse(undefined)),
    }),
    database,
    logger: false,
  });
  await app.listen({ port, host: "127.0.0.1" });
  return {
    baseUrl,
    close: async () => {
      await app.close();
      await database.close();
      await cep.close();
      await feegow.close();
    },
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** One server per lane; a fork uses baseUrls[(VITEST_POOL_ID - 1) % length]. */
    baseUrls: string[];
  }
}
