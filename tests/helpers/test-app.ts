import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import type { Database } from "../../src/db/client.js";
import { buildApp } from "../../src/server/app.js";
import { type Env, loadEnv } from "../../src/server/env.js";
import type { CepSource } from "../../src/server/services/cep/cep-clients.js";
import { openTestDatabase } from "./test-db.js";

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  env: Env;
  close(): Promise<void>;
}

export function testEnv(overrides: Record<string, string> = {}): Env {
  return loadEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    RATE_LIMIT_AUTH_PER_MINUTE: "10000",
    VIACEP_URL: "http://127.0.0.1:9",
    BRASILAPI_URL: "http://127.0.0.1:9",
    CEP_TIMEOUT_MS: "1000",
    ...overrides,
  });
}

/** An app on a test database; pass `database` to share one between several apps. */
export async function createTestApp(
  options: { env?: Record<string, string>; database?: Database; cepSources?: CepSource[] } = {},
): Promise<TestContext> {
  const database = options.database ?? (await openTestDatabase());
  const env = testEnv(options.env);
  const app = await buildApp({ env, database, logger: false, cepSources: options.cepSources });
  await app.ready();
  return {
    app,
    database,
    env,
    close: async () => {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

/** The session cookie a response set, ready for the next request's `cookie` header. */
export function sessionCookieFrom(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === "consentir_session");
  if (!cookie) throw new Error(`no session cookie in response (status ${response.statusCode})`);
  return `consentir_session=${cookie.value}`;
}

let counter = 0;
/** A unique e-mail per call, so tests sharing a database never collide. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${process.pid}.${counter}@teste.consentir.test`;
}
