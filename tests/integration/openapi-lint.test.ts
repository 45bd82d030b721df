/**
 * "an API integrators can generate from": the OpenAPI document passes Redocly's
 * recommended rules with no error and no warning, every operation has a unique operationId and
 * the error shape, and each operation's declared security is what the running app does — a
 * secured operation called without a session answers 401, a public one never does.
 */
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUEST_EXAMPLES } from "../../src/server/openapi.js";
import { newClinic } from "../helpers/sessions.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
type Operation = { operationId?: string; security?: unknown[]; responses: Record<string, unknown> };
let paths: Record<string, Record<string, Operation>>;

beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: "https://app.consentir.test" } });
  paths = (ctx.app.swagger() as unknown as { paths: typeof paths }).paths;
});
afterAll(async () => {
  await ctx.close();
});

const operations = () =>
  Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

describe("OpenAPI document", () => {
  it("passes Redocly's recommended rules: 0 errors, 0 warnings", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({
      source: JSON.stringify(ctx.app.swagger()),
      absoluteRef: "openapi.json",
      config,
    });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it("names every operation once and documents the error shape", () => {
    const ids = operations().map((o) => o.operation.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain("getDocumentsByIdSignedPdf");
    for (const { operation } of operations()) {
      expect(Object.keys(operation.responses).some((status) => status.startsWith("4"))).toBe(true);
    }
  });

  it("names every JSON request and answer as a component, and declares the PDF and ZIP downloads and the PDF check's body", () => {
    const document = ctx.app.swagger() as unknown as {
      components: { schemas: Record<string, unknown> };
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content: Record<string, { schema: unknown }> };
            responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
          }
        >
      >;
    };
    const inline: string[] = [];
    for (const [url, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const body = operation.requestBody?.content["application/json"]?.schema as Record<string, unknown> | undefined;
        if (body && !("$ref" in body)) inline.push(`${method} ${url} body`);
        for (const [status, answer] of Object.entries(operation.responses)) {
          const schema = answer.content?.["application/json"]?.schema;
          if (schema && !("$ref" in schema)) inline.push(`${method} ${url} ${status}`);
        }
      }
    }
    expect(inline).toEqual([]);
    expect(document.paths["/api/settings/embedding"]!.put!.requestBody!.content["application/json"]!.schema).toEqual({
      $ref: "#/components/schemas/PutSettingsEmbeddingCorpo",
    });
    expect(document.components.schemas.PutSettingsEmbeddingResposta).toMatchObject({
      type: "object",
      properties: { origens: { type: "array" } },
    });
    expect(document.components.schemas.Erro).toMatchObject({ required: ["code", "message"] });
    const binary = { schema: { type: "string", format: "binary" } };
    for (const url of [
      "/api/documents/{id}/pdf",
      "/api/documents/{id}/signed-pdf",
      "/api/public/sign/{token}/signed-pdf",
    ]) {
      expect(document.paths[url]!.get!.responses["200"]!.content, url).toEqual({ "application/pdf": binary });
    }
    for (const url of ["/api/patients/{id}/export", "/api/settings/export"]) {
      expect(document.paths[url]!.get!.responses["200"]!.content, url).toEqual({ "application/zip": binary });
    }
    for (const url of ["/api/public/verify/{code}/pdf", "/api/public/verify-pdf"]) {
      expect(document.paths[url]!.post!.requestBody!.content["application/pdf"], url).toEqual(binary);
    }
  });

  it("names fields in one casing: snake_case (confirmPassword is the spec's sign-up field, resourceType FHIR's)", () => {
    const names = new Set<string>();
    const walk = (node: unknown): void => {
      if (!node || typeof node !== "object") return;
      const properties = (node as { properties?: Record<string, unknown> }).properties;
      if (properties && typeof properties === "object") for (const name of Object.keys(properties)) names.add(name);
      for (const value of Object.values(node)) walk(value);
    };
    walk(ctx.app.swagger());
    expect(names.has("next_cursor")).toBe(true);
    expect(
      [...names].filter((name) => /[A-Z]/.test(name) && !["confirmPassword", "resourceType"].includes(name)),
    ).toEqual([]);
  });

  it("declares the security each operation really has", async () => {
    const mismatches: string[] = [];
    for (const { path, method, operation } of operations()) {
      const url = path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");
      const response = await ctx.app.inject({
        method: method.toUpperCase() as "GET",
        url,
        payload: method === "get" || method === "head" ? undefined : {},
      });
      const declaredPublic = Array.isArray(operation.security) && operation.security.length === 0;
      if (declaredPublic === (response.statusCode === 401))
        mismatches.push(
          `${method.toUpperCase()} ${path}: ${declaredPublic ? "público" : "com sessão"}, respondeu ${response.statusCode}`,
        );
    }
    expect(mismatches).toEqual([]);
    expect(operations().length).toBeGreaterThan(60);
  });

  it("shows example bodies for the integrator's first calls, and the app accepts those that need no ids", async () => {
    const document = ctx.app.swagger() as unknown as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>>;
    };
    for (const key of Object.keys(REQUEST_EXAMPLES)) {
      const [method, url] = key.split(" ") as [string, string];
      expect(document.paths[url]?.[method]?.requestBody?.content["application/json"]?.example, key).toEqual(
        REQUEST_EXAMPLES[key],
      );
    }
    // The lint test above checks every example against its schema; these reach the route itself.
    const clinic = await newClinic(ctx.app);
    for (const key of ["post /api/patients", "post /api/settings/api-keys", "post /api/settings/webhooks"]) {
      const url = key.split(" ")[1]!;
      const response = await ctx.app.inject({
        method: "POST",
        url,
        headers: { cookie: clinic.cookie },
        payload: REQUEST_EXAMPLES[key],
      });
      expect(response.statusCode, `${key}: ${response.body}`).toBe(201);
    }
  });
});
