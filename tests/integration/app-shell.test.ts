import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { rawRows } from "../../src/db/raw.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withTenant } from "../../src/db/tenant-scope.js";
import { buildApp } from "../../src/server/app.js";
import { EnvError, loadEnv } from "../../src/server/env.js";
import { professionalSignUp } from "../helpers/factories.js";
import { newClinic } from "../helpers/sessions.js";
import { createTestApp, testEnv, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

describe("health, docs and headers", () => {
  it("answers /api/health when the database is reachable", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "ok",
      database: process.env.TEST_DB === "postgres" ? "postgres" : "pglite",
    });
    expect(response.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("serves the OpenAPI document with the auth routes", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining(["/api/auth/sign-up", "/api/auth/sign-in", "/api/health", "/api/cep/{cep}"]),
    );
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/nao-existe" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: "NOT_FOUND", message: "Recurso não encontrado." });
  });
});

describe("client app", () => {
  it("serves index.html for client routes (SPA fallback) and files as they are", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "consentir-client-"));
    writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>Consentir</title><div id=root></div>");
    writeFileSync(path.join(dir, "robots.txt"), "User-agent: *");
    const app = await buildApp({ env: testEnv(), database: ctx.database, logger: false, clientDir: dir });
    try {
      const page = await app.inject({ method: "GET", url: "/patients/qualquer-coisa" });
      expect(page.statusCode).toBe(200);
      expect(page.headers["content-type"]).toContain("text/html");
      expect(page.body).toContain("<div id=root>");
      const file = await app.inject({ method: "GET", url: "/robots.txt" });
      expect(file.body).toBe("User-agent: *");
      const api = await app.inject({ method: "GET", url: "/api/qualquer" });
      expect(api.statusCode).toBe(404);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the saveable verifier page (decision 077, amended)", () => {
  it("has its own policy: only its inline script and style by hash, a blob: worker, no network; the app keeps its own", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "consentir-client-"));
    writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>Consentir</title><div id=root></div>");
    const page = (script: string) =>
      `<!doctype html><style>body{margin:0}${" ".repeat(2000)}</style><p id="aviso">Salve</p><script>${script}</script>`;
    const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
    writeFileSync(path.join(dir, "verificador.html"), page("document.title='um'"));
    execFileSync("node", ["scripts/precompress.mjs", dir]);
    const app = await buildApp({ env: testEnv(), database: ctx.database, logger: false, clientDir: dir });
    try {
      const plain = await app.inject({ method: "GET", url: "/verificador.html" });
      expect(plain.statusCode).toBe(200);
      const csp = plain.headers["content-security-policy"] as string;
      expect(csp.split("; ")).toEqual([
        "default-src 'none'",
        `script-src ${sha("document.title='um'")}`,
        `style-src ${sha(`body{margin:0}${" ".repeat(2000)}`)}`,
        "worker-src blob:",
        "connect-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
        "object-src 'none'",
      ]);
      expect(csp).not.toContain("unsafe");
      const br = await app.inject({ method: "GET", url: "/verificador.html", headers: { "accept-encoding": "br" } });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers["content-security-policy"]).toBe(csp);
      // The rest of the app keeps the app's policy.
      const other = await app.inject({ method: "GET", url: "/documents" });
      expect(other.headers["content-security-policy"]).toContain("script-src 'self'");
      // A new build of the page: the policy follows the bytes on disk.
      writeFileSync(path.join(dir, "verificador.html"), page("document.title='dois'"), { flag: "w" });
      utimesSync(path.join(dir, "verificador.html"), new Date(), new Date(Date.now() + 5_000));
      const rebuilt = await app.inject({ method: "GET", url: "/verificador.html" });
      expect(rebuilt.headers["content-security-policy"]).toContain(`script-src ${sha("document.title='dois'")};`);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("light pages", () => {
  /** A built client: a hashed bundle, its hidden source map, index.html; precompressed by the build step. */
  function builtClient(): string {
    const dir = mkdtempSync(path.join(tmpdir(), "consentir-client-"));
    mkdirSync(path.join(dir, "assets"));
    writeFileSync(
      path.join(dir, "index.html"),
      `<!doctype html><title>Consentir</title>${"<div id=root></div>".repeat(100)}`,
    );
    writeFileSync(
      path.join(dir, "assets", "index-AbC123.js"),
      `export const x = ${JSON.stringify("consentir ".repeat(500))};`,
    );
    writeFileSync(path.join(dir, "assets", "index-AbC123.js.map"), '{"version":3,"sources":["src/client/main.tsx"]}');
    execFileSync("node", ["scripts/precompress.mjs", dir]);
    return dir;
  }

  it("answers the build's brotli or gzip twin to browsers that accept it, immutable for hashed files", async () => {
    const dir = builtClient();
    const app = await buildApp({ env: testEnv(), database: ctx.database, logger: false, clientDir: dir });
    try {
      const plain = await app.inject({ method: "GET", url: "/assets/index-AbC123.js" });
      expect(plain.headers["content-encoding"]).toBeUndefined();
      const br = await app.inject({
        method: "GET",
        url: "/assets/index-AbC123.js",
        headers: { "accept-encoding": "br, gzip" },
      });
      expect(br.statusCode).toBe(200);
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers["cache-control"]).toContain("immutable");
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
      expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
      const gz = await app.inject({
        method: "GET",
        url: "/assets/index-AbC123.js",
        headers: { "accept-encoding": "gzip" },
      });
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
      const page = await app.inject({ method: "GET", url: "/documents", headers: { "accept-encoding": "br" } });
      expect(page.headers["cache-control"]).toBe("no-cache");
      expect(brotliDecompressSync(page.rawPayload).toString()).toContain("<div id=root>");
      // Outside production the maps help debugging.
      expect((await app.inject({ method: "GET", url: "/assets/index-AbC123.js.map" })).statusCode).toBe(200);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("compresses large JSON answers of the API with brotli or gzip, as the client accepts", async () => {
    const plain = await ctx.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(10_000);
    const br = await ctx.app.inject({
      method: "GET",
      url: "/api/docs/json",
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gz = await ctx.app.inject({
      method: "GET",
      url: "/api/docs/json",
      headers: { "accept-encoding": "gzip, br;q=0" },
    });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    // Small answers go as they are; errors keep their JSON shape.
    const small = await ctx.app.inject({ method: "GET", url: "/api/nao-existe", headers: { "accept-encoding": "br" } });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.json()).toEqual({ code: "NOT_FOUND", message: "Recurso não encontrado." });
  });

  it("does not serve source maps in production", async () => {
    const dir = builtClient();
    const app = await buildApp({
      env: testEnv({ NODE_ENV: "production", PUBLIC_URL: "https://app.consentir.test", TSA_URL: "none" }),
      database: ctx.database,
      logger: false,
      clientDir: dir,
    });
    try {
      const map = await app.inject({ method: "GET", url: "/assets/index-AbC123.js.map" });
      expect(map.statusCode).toBe(404);
      expect(map.body).not.toContain("src/client/main.tsx");
      expect((await app.inject({ method: "GET", url: "/assets/index-AbC123.js" })).statusCode).toBe(200);
      // A stale hash is a 404 too, not index.html served as JavaScript.
      expect((await app.inject({ method: "GET", url: "/assets/index-Old999.js" })).statusCode).toBe(404);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("env", () => {
  it("names every bad variable", () => {
    let caught: unknown;
    try {
      loadEnv({ PORT: "abc", DATABASE_URL: "mysql://x", LOG_LEVEL: "loud" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EnvError);
    const problems = (caught as EnvError).problems.join("\n");
    expect(problems).toContain("PORT");
    expect(problems).toContain("DATABASE_URL");
    expect(problems).toContain("LOG_LEVEL");
  });

  it("has the documented defaults", () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe("./data");
    expect(env.DATABASE_URL).toBeUndefined();
  });
});

describe("row-level security", () => {
  it("hides other tenants' rows from tenant-scoped transactions even without a WHERE clause", async () => {
    const a = (
      await ctx.app.inject({ method: "POST", url: "/api/auth/sign-up", payload: professionalSignUp() })
    ).json();
    const b = (
      await ctx.app.inject({ method: "POST", url: "/api/auth/sign-up", payload: professionalSignUp() })
    ).json();
    const seenByA = await withTenant(ctx.database.db, a.tenant_id, async (tx) => {
      return rawRows<{ id: string; tenant_id: string }>(tx, sql`select id, tenant_id from profiles`);
    });
    expect(seenByA.map((r) => r.id)).toEqual([a.profile_id]);
    // The restricted role holds inside the transaction only (SET LOCAL ROLE semantics).
    const roles = await withTenant(ctx.database.db, a.tenant_id, (tx) =>
      rawRows<{ role: string; tenant: string }>(
        tx,
        sql`select current_user as role, current_setting('app.tenant_id') as tenant`,
      ),
    );
    expect(roles).toEqual([{ role: "consentir_app", tenant: a.tenant_id }]);
    const [after] = await rawRows<{ role: string }>(ctx.database.db, sql`select current_user as role`);
    expect(after?.role).not.toBe("consentir_app");

    await expect(
      withTenant(ctx.database.db, a.tenant_id, (tx) =>
        rawRows(tx, sql`update profiles set nome = 'invadido' where id = ${b.profile_id} returning id`),
      ).then((rows) => rows.length),
    ).resolves.toBe(0);

    await expect(
      withTenant(ctx.database.db, a.tenant_id, (tx) =>
        tx.execute(
          sql`insert into sessions (tenant_id, profile_id, token_hash, expires_at)
              values (${b.tenant_id}, ${b.profile_id}, 'x', now())`,
        ),
      ),
    ).rejects.toThrow();
  });
});

describe("public address in production", () => {
  it("refuses to start without PUBLIC_URL, or with a localhost one, naming the variable", () => {
    for (const extra of [
      {},
      { PUBLIC_URL: "http://localhost:3000" },
      { PUBLIC_URL: "http://127.0.0.1" },
      { PUBLIC_URL: "ftp://x.example" },
    ]) {
      let caught: unknown;
      try {
        loadEnv({ NODE_ENV: "production", ...extra });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(EnvError);
      expect((caught as EnvError).problems.join("\n")).toMatch(/^PUBLIC_URL: /m);
    }
    // A published server needs trusted time, or says it goes without (decision 060).
    let withoutTsa: unknown;
    try {
      loadEnv({ NODE_ENV: "production", PUBLIC_URL: "https://consentir.exemplo.com.br" });
    } catch (error) {
      withoutTsa = error;
    }
    expect((withoutTsa as EnvError).problems.join("\n")).toMatch(/^TSA_URL: obrigatória com NODE_ENV=production/m);
    expect(() => loadEnv({ TSA_URL: "https://a.exemplo/tsa, ftp://b.exemplo" })).toThrow(
      /TSA_URL: use a URL http\(s\)/,
    );
    expect(
      loadEnv({
        NODE_ENV: "production",
        PUBLIC_URL: "https://consentir.exemplo.com.br",
        TSA_URL: "https://a.exemplo/tsa,https://b.exemplo/tsa",
      }).TSA_URL,
    ).toBe("https://a.exemplo/tsa,https://b.exemplo/tsa");
    expect(
      loadEnv({ NODE_ENV: "production", PUBLIC_URL: "https://consentir.exemplo.com.br", TSA_URL: "none" }).PUBLIC_URL,
    ).toBe("https://consentir.exemplo.com.br");
    expect(loadEnv({}).PUBLIC_URL).toBeUndefined();
  });
});

describe("development outbox", () => {
  it("answers only requests from this machine", async () => {
    const local = await ctx.app.inject({ method: "GET", url: "/api/dev/outbox" });
    expect(local.statusCode).toBe(200);
    expect(Array.isArray(local.json().items)).toBe(true);
    const remote = await ctx.app.inject({ method: "GET", url: "/api/dev/outbox", remoteAddress: "203.0.113.7" });
    expect(remote.statusCode).toBe(404);
  });

  it("?to= keeps one address's mail only", async () => {
    const [first, second] = [await newClinic(ctx.app), await newClinic(ctx.app)];
    for (const user of [first, second]) {
      const asked = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/password-reset/request",
        payload: { email: user.email },
      });
      expect(asked.statusCode).toBeLessThan(300);
    }
    const mine = await ctx.app.inject({ method: "GET", url: `/api/dev/outbox?to=${encodeURIComponent(first.email)}` });
    expect(mine.statusCode).toBe(200);
    const items = mine.json().items as { to: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.to === first.email)).toBe(true);
    const all = (await ctx.app.inject({ method: "GET", url: "/api/dev/outbox" })).json().items as { to: string }[];
    expect(all.some((item) => item.to === second.email)).toBe(true);
    const bad = await ctx.app.inject({ method: "GET", url: `/api/dev/outbox?to=${"a".repeat(400)}` });
    expect(bad.statusCode).toBe(400);
  });

  it("does not exist in production", async () => {
    const app = await buildApp({
      env: testEnv({ NODE_ENV: "production", PUBLIC_URL: "https://app.consentir.test", TSA_URL: "none" }),
      database: ctx.database,
      logger: false,
    });
    try {
      expect((await app.inject({ method: "GET", url: "/api/dev/outbox" })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
