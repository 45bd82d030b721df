import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/server/app.js";
import { createTestApp, testEnv, type TestContext } from "../helpers/test-app.js";

// OpenAPI docs: off in production unless API_DOCS=true; the document itself is
// always built (app.swagger(), used by the bad-input sweep).
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

async function appWith(env: Record<string, string>) {
  return buildApp({ env: testEnv(env), database: ctx.database, logger: false });
}

const production = { NODE_ENV: "production", PUBLIC_URL: "https://app.consentir.test", TSA_URL: "none" };

describe("API docs", () => {
  it("are served outside production", async () => {
    expect((await ctx.app.inject({ method: "GET", url: "/api/docs" })).statusCode).toBeLessThan(400);
    expect((await ctx.app.inject({ method: "GET", url: "/api/docs/json" })).statusCode).toBe(200);
  });

  it("answer 404 in production, while the document is still built", async () => {
    const app = await appWith(production);
    try {
      for (const url of [
        "/api/docs",
        "/api/docs/",
        "/api/docs/json",
        "/api/docs/yaml",
        "/api/docs/static/index.html",
      ]) {
        const response = await app.inject({ method: "GET", url });
        expect(response.statusCode, url).toBe(404);
        expect(response.json(), url).toEqual({ code: "NOT_FOUND", message: "Recurso não encontrado." });
      }
      const doc = (app as unknown as { swagger(): { paths: Record<string, unknown> } }).swagger();
      expect(Object.keys(doc.paths)).toContain("/api/auth/sign-in");
    } finally {
      await app.close();
    }
  });

  it("are served in production with API_DOCS=true", async () => {
    const app = await appWith({ ...production, API_DOCS: "true" });
    try {
      const page = await app.inject({ method: "GET", url: "/api/docs" });
      expect(page.statusCode).toBeLessThan(400);
      const json = await app.inject({ method: "GET", url: "/api/docs/json" });
      expect(json.statusCode).toBe(200);
      expect(Object.keys(json.json().paths)).toContain("/api/auth/sign-in");
    } finally {
      await app.close();
    }
  });

  it("can be turned off outside production with API_DOCS=false", async () => {
    const app = await appWith({ API_DOCS: "false" });
    try {
      expect((await app.inject({ method: "GET", url: "/api/docs/json" })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
