import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client.js";
import { embedSettingsInputSchema, embedSettingsSchema } from "../../shared/schemas/embedding.js";
import type { Env } from "../env.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { getEmbedSettings, saveEmbedSettings } from "../services/embedding/embed-settings.js";

const tags = ["configurações"];

/**
 * Configurações → "Sites autorizados a incorporar a assinatura" (owner and administrators, with a
 * session or an API key of such a role; decision 071).
 */
export const embeddingRoutes: FastifyPluginAsyncZod<{ db: Db; env: Env }> = async (app, { db, env }) => {
  const production = env.NODE_ENV === "production";
  app.get(
    "/api/settings/embedding",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Sites autorizados a mostrar a página de assinatura dentro deles (proprietário ou administrador)",
        response: { 200: embedSettingsSchema },
      },
    },
    async (request) => getEmbedSettings(db, currentUser(request)),
  );
  app.put(
    "/api/settings/embedding",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "Substitui a lista de sites autorizados a incorporar a assinatura (origens https://; lista vazia desliga)",
        body: embedSettingsInputSchema,
        response: { 200: embedSettingsSchema },
      },
    },
    async (request) =>
      saveEmbedSettings({
        db,
        actor: currentUser(request),
        input: request.body,
        production,
        audit: {
          ip: request.ip,
          userAgent: request.headers["user-agent"],
        },
      }),
  );
};
