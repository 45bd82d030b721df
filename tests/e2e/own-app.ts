/**
 * A browser test's own app, for a file whose subject needs a configuration the shared e2e servers
 * do not have (an SMS provider, a failing PDF renderer, a role given in the database): its own
 * in-memory database, server and browser, and a desktop staff page in pt-BR whose page errors and
 * console errors are collected (a test ends with `expect(errors).toEqual([])`).
 */
import type { FastifyInstance } from "fastify";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";
import { buildApp } from "../../src/server/app.js";
import type { PdfPoolOptions } from "../../src/server/pdf-pool/pdf-pool.js";
import { freePort } from "../helpers/server-process.js";
import { testEnv } from "../helpers/test-env.js";
import { launchBrowser } from "./browser.js";

export const OWN_APP_DESKTOP = { width: 1366, height: 900 } as const;

export interface OwnApp {
  app: FastifyInstance;
  database: Database;
  base: string;
  browser: Browser;
  context: BrowserContext;
  staff: Page;
  errors: string[];
  /** Runs the queued jobs until `done` holds (at most 20 rounds), then asserts it. */
  workUntil(done: () => boolean): Promise<void>;
  close(): Promise<void>;
}

export interface OwnAppOptions {
  env?: Record<string, string>;
  pdfPool?: PdfPoolOptions;
  /** Console errors the test provokes on purpose (e.g. a download answered 500). */
  expectedConsoleError?: RegExp;
}

export async function startOwnApp(options: OwnAppOptions = {}): Promise<OwnApp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const database = await openDatabase({ kind: "pglite-memory" });
  const app = await buildApp({
    env: testEnv({ PORT: String(port), PUBLIC_URL: base, ...options.env }),
    database,
    logger: false,
    ...(options.pdfPool ? { pdfPool: options.pdfPool } : {}),
  });
  await app.listen({ port, host: "127.0.0.1" });
  const browser = await launchBrowser();
  const context = await browser.newContext({
    viewport: OWN_APP_DESKTOP,
    baseURL: base,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
  });
  const staff = await context.newPage();
  const errors: string[] = [];
  staff.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  staff.on("console", (message) => {
    if (message.type() !== "error") return;
    if (options.expectedConsoleError?.test(message.text())) return;
    errors.push(`console: ${message.text()}`);
  });
  return {
    app,
    database,
    base,
    browser,
    context,
    staff,
    errors,
    async workUntil(done) {
      for (let round = 0; round < 20 && !done(); round += 1) await app.worker.tick({ sweep: false });
      expect(done()).toBe(true);
    },
    async close() {
      await browser.close();
      await app.close();
      await database.close();
    },
  };
}
