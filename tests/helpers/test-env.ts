import os from "node:os";
import path from "node:path";
import { type Env, loadEnv } from "../../src/server/env.js";

/** The env every test app runs with: quiet, no outside calls, generous rate limits, no admission gate. */
export function testEnv(overrides: Record<string, string> = {}): Env {
  return loadEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    RATE_LIMIT_AUTH_PER_MINUTE: "10000",
    RATE_LIMIT_PUBLIC_PER_MINUTE: "10000",
    // No admission gate on the public routes (decision 040): tests that sign many at once would
    // otherwise be answered "busy" on a slow machine; public-admission.test.ts turns it on.
    PUBLIC_MAX_IN_FLIGHT: "0",
    VIACEP_URL: "http://127.0.0.1:9",
    BRASILAPI_URL: "http://127.0.0.1:9",
    CEP_TIMEOUT_MS: "1000",
    // Files (PDFs) go to a scratch folder, never the project's ./data.
    DATA_DIR: path.join(os.tmpdir(), "consentir-test-data"),
    // Tests run worker rounds by hand (app.worker.tick()); the browser suite turns it on.
    WORKER: "false",
    // The local CRL repository and time-stamp authority listen on 127.0.0.1 (decision 053).
    OUTBOUND_ALLOW_PRIVATE_NETWORK: "true",
    ...overrides,
  });
}

let counter = 0;
/** A unique e-mail per call, so tests sharing a database never collide. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${process.pid}.${counter}@teste.consentir.test`;
}
