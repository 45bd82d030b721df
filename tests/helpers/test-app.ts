import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import type { Database } from "../../src/db/client.js";
import { buildApp } from "../../src/server/app.js";
import type { Env } from "../../src/server/env.js";
import type { LiveLimits } from "../../src/server/live/live-hub.js";
import type { CepSource } from "../../src/server/services/cep/cep-clients.js";
import { testEnv } from "./test-env.js";
import { openTestDatabase } from "./test-db.js";

export { testEnv, uniqueEmail } from "./test-env.js";

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  env: Env;
  close(): Promise<void>;
}

/** An app on a test database; pass `database` to share one between several apps. */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    database?: Database;
    cepSources?: CepSource[];
    live?: Partial<LiveLimits>;
  } = {},
): Promise<TestContext> {
  const database = options.database ?? (await openTestDatabase());
  const env = testEnv(options.env);
  const app = await buildApp({ env, database, logger: false, cepSources: options.cepSources, live: options.live });
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
