/**
 * The OpenAPI document integrators generate clients from: an operationId on every
 * operation (camelCase of method + path, unless a route names its own), the session cookie or an
 * API key (Bearer, decision 058) as the security schemes (public routes say `security: []`,
 * session-only ones name only the cookie), the one error shape on every
 * operation's 4XX, servers and a license. `tests/integration/openapi-lint.test.ts` lints it with
 * Redocly's recommended rules and checks each operation's security against the running app.
 */
import type { FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { SESSION_COOKIE } from "./plugins/auth.js";
import { isPublicRoute } from "./plugins/public-routes.js";
import { isSessionOnlyRoute } from "./plugins/session-only-routes.js";

/** GET /api/documents/:id/signed-pdf → getDocumentsByIdSignedPdf */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, "")
    .split("/")
    .filter(Boolean)
    .map((part) => (part.startsWith(":") || part.startsWith("{") ? `by-${part.replace(/[:{}]/g, "")}` : part))
    .join("-")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const camel = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  return `${method.toLowerCase()}${camel}`;
}

const errorSchema = {
  description: "Erro: código estável, mensagem em português e, para dados inválidos, os problemas por campo",
  type: "object",
  required: ["code", "message"],
  properties: {
    code: { type: "string", examples: ["VALIDATION"] },
    message: { type: "string", examples: ["Dados inválidos."] },
    issues: {
      type: "array",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: { path: { type: "string" }, message: { type: "string" } },
      },
    },
    details: { type: "object", additionalProperties: true },
  },
};

type Transform = NonNullable<FastifyDynamicSwaggerOptions["transform"]>;

const transform: Transform = (input) => {
  const out = jsonSchemaTransform(input as Parameters<typeof jsonSchemaTransform>[0]) as {
    schema: Record<string, unknown>;
    url: string;
  };
  const method = String(Array.isArray(input.route.method) ? input.route.method[0] : input.route.method);
  const schema = { ...out.schema };
  schema.operationId ??= operationIdOf(method, input.url);
  if (isPublicRoute(input.url)) schema.security = [];
  // Decision 058: what a person does in their own session, a key may not.
  else if (isSessionOnlyRoute(input.url)) schema.security = [{ sessao: [] }];
  const response = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
  if (!Object.keys(response).some((status) => status.startsWith("4"))) response["4XX"] = errorSchema;
  // Routes that answer a PDF or no body declare no JSON schema for success.
  if (!Object.keys(response).some((status) => status.startsWith("2")))
    response["2XX"] = { description: "Sucesso (um PDF, ou sem corpo)" };
  schema.response = response;
  return { ...out, schema };
};

export function openapiOptions(publicUrl: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      info: {
        title: "Consentir API",
        description:
          "API do Consentir: pacientes, modelos, documentos, assinaturas e verificação. Respostas em português (pt-BR).",
        version: "0.1.0",
        license: { name: "Proprietária", url: `${publicUrl}/termos` },
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          sessao: {
            type: "apiKey",
            in: "cookie",
            name: SESSION_COOKIE,
            description: "Sessão aberta por POST /api/auth/sign-in (cookie httpOnly)",
          },
          chaveApi: {
            type: "http",
            scheme: "bearer",
            description:
              "Chave de API criada em Configurações → Chaves de API (`Authorization: Bearer csk_live_…`); age com o papel escolhido para ela, nos dados da clínica que a criou. Sem cookie de sessão na mesma requisição.",
          },
        },
      },
      security: [{ sessao: [] }, { chaveApi: [] }],
    },
    transform,
  };
}
