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

/** The same shape as a component: OpenAPI 3.0 says `example` where JSON Schema says `examples`. */
const errorComponent = {
  ...errorSchema,
  properties: {
    ...errorSchema.properties,
    code: { type: "string", example: "VALIDATION" },
    message: { type: "string", example: "Dados inválidos." },
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

/** The routes that answer a file, not JSON: their success is declared with its media type. */
const DOWNLOADS: Record<string, "application/pdf" | "application/zip"> = {
  "get /api/documents/{id}/pdf": "application/pdf",
  "get /api/documents/{id}/signed-pdf": "application/pdf",
  "get /api/public/sign/{token}/signed-pdf": "application/pdf",
  "get /api/patients/{id}/export": "application/zip",
  "get /api/settings/export": "application/zip",
};
/**
 * Example request bodies of the operations an integrator starts with (README "API"): shown by
 * /api/docs and generated clients, checked against their schemas by the lint test (Redocly's
 * no-invalid-media-type-examples) and, for those that need no existing ids, sent to a live app.
 */
const PATIENT_ID = "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f";
const VERSION_ID = "7d2e9c4b-1a3f-4e5d-8c6b-2f1a0e9d8c7b";
const PROFESSIONAL_ID = "b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e";
export const REQUEST_EXAMPLES: Record<string, Json> = {
  "post /api/patients": {
    nome: "Maria Aparecida da Silva",
    cpf: "529.982.247-25",
    data_nascimento: "1984-03-15",
    telefone: "(11) 91234-5678",
    email: "maria.silva@exemplo.com.br",
  },
  "post /api/documents": {
    paciente_id: PATIENT_ID,
    template_version_id: VERSION_ID,
    titulo: "TCLE - Clareamento dental",
    procedimento: "Clareamento dental",
    data_procedimento: "2026-12-10",
    medico_responsavel_id: PROFESSIONAL_ID,
    variaveis: { riscos_personalizados: "Sensibilidade dentária transitória." },
  },
  "post /api/documents/{id}/send": { email: true, whatsapp: true },
  "post /api/documents/bulk": {
    template_version_id: VERSION_ID,
    titulo: "TCLE - Vacinação",
    medico_responsavel_id: PROFESSIONAL_ID,
    email: true,
    linhas: [{ paciente_id: PATIENT_ID }, { cpf: "529.982.247-25" }],
  },
  "post /api/settings/api-keys": { nome: "Prontuário da recepção", role: "atendente" },
  "post /api/settings/webhooks": {
    url: "https://sistema.clinica-exemplo.com.br/consentir/eventos",
    descricao: "Prontuário",
    eventos: ["document.signed", "document.refused", "document.revoked"],
  },
};

/** The routes whose body is the PDF itself (the check of a file on /verificar). */
const PDF_BODIES = new Set(["post /api/public/verify/{code}/pdf", "post /api/public/verify-pdf"]);
const binary = { type: "string", format: "binary" };

type Json = Record<string, unknown>;
interface OpenApiOperation {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: Json; example?: Json }> } & Json;
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>;
}
const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);

/**
 * After every route is in: each JSON request body and answer becomes a named component
 * (`<OperationId>Corpo`, `<OperationId>Resposta` — `Resposta201` etc. for a second success), the
 * error shape one `Erro`, and the file routes say `application/pdf` or `application/zip`, so
 * generated clients get types with names and download methods. Exported for its test.
 */
export function withNamedSchemas(document: Json): Json {
  const paths = (document.paths ?? {}) as Record<string, Record<string, OpenApiOperation>>;
  const components = { ...((document.components ?? {}) as Json) };
  const schemas: Record<string, Json> = {
    ...((components.schemas ?? {}) as Record<string, Json>),
    Erro: errorComponent,
  };
  const named = (name: string, schema: Json | undefined) => {
    if (!schema || "$ref" in schema) return schema;
    schemas[name] = schema;
    return { $ref: `#/components/schemas/${name}` };
  };
  for (const [url, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!operation || typeof operation !== "object" || !operation.operationId) continue;
      const key = `${method} ${url}`;
      const base = pascal(operation.operationId);
      const body = operation.requestBody?.content?.["application/json"];
      if (body?.schema) body.schema = named(`${base}Corpo`, body.schema);
      if (body && REQUEST_EXAMPLES[key]) body.example = REQUEST_EXAMPLES[key];
      if (PDF_BODIES.has(key)) {
        operation.requestBody = {
          required: true,
          description: "O arquivo PDF a conferir",
          content: { "application/pdf": { schema: binary }, "application/octet-stream": { schema: binary } },
        };
      }
      const download = DOWNLOADS[key];
      if (download && operation.responses) {
        for (const status of Object.keys(operation.responses))
          if (/^2/.test(status)) delete operation.responses[status];
        operation.responses["200"] = {
          description: download === "application/pdf" ? "O arquivo PDF" : "O arquivo ZIP",
          content: { [download]: { schema: binary } },
        };
      }
      const successes = Object.keys(operation.responses ?? {}).filter((status) => /^2/.test(status));
      for (const [status, answer] of Object.entries(operation.responses ?? {})) {
        const json = answer.content?.["application/json"];
        if (!json?.schema) continue;
        if (json.schema.description === errorSchema.description) json.schema = { $ref: "#/components/schemas/Erro" };
        else json.schema = named(`${base}Resposta${status === successes[0] ? "" : status}`, json.schema);
      }
    }
  }
  return { ...document, components: { ...components, schemas } };
}

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
    transformObject: (input) =>
      "openapiObject" in input
        ? (withNamedSchemas(input.openapiObject as Json) as typeof input.openapiObject)
        : input.swaggerObject,
  };
}
