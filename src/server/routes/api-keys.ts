import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import { apiKeyInputSchema, apiKeySchema, createdApiKeySchema } from "../../shared/schemas/api-keys.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { createApiKey } from "../services/api-keys/create-api-key.js";
import { listApiKeys } from "../services/api-keys/list-api-keys.js";
import { revokeApiKey } from "../services/api-keys/revoke-api-key.js";

const tags = ["chaves de API"];
const idParams = z.object({ id: z.uuid("Chave de API não encontrada") });

/**
 * Configurações → Chaves de API (owner and administrators, decision 058). Session only: a key
 * never lists, mints or revokes keys (session-only-routes.ts).
 */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addHook("preHandler", requireUser);
  // Every route here is the clinic's settings: one check for all of them (owner or administrator).
  app.addHook("preHandler", async (request) => authorize(currentUser(request), "settings.manage"));
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.get(
    "/api/settings/api-keys",
    {
      schema: {
        tags,
        summary: "Chaves de API da clínica (proprietário ou administrador; só com sessão)",
        response: { 200: z.array(apiKeySchema) },
      },
    },
    async (request) => listApiKeys(db, currentUser(request)),
  );

  app.post(
    "/api/settings/api-keys",
    {
      schema: {
        tags,
        summary: "Cria uma chave de API; o segredo aparece só nesta resposta",
        body: apiKeyInputSchema,
        response: { 201: createdApiKeySchema },
      },
    },
    async (request, reply) => {
      const created = await createApiKey({
        db,
        actor: currentUser(request),
        input: request.body,
        audit: auditOf(request),
      });
      return reply.status(201).send(created);
    },
  );

  app.post(
    "/api/settings/api-keys/:id/revoke",
    {
      schema: {
        tags,
        summary: "Revoga uma chave de API: a próxima requisição com ela recebe 401",
        params: idParams,
        response: { 200: apiKeySchema },
      },
    },
    async (request) =>
      revokeApiKey({ db, actor: currentUser(request), id: request.params.id, audit: auditOf(request) }),
  );
};
