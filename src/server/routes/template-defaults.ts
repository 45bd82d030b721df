import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client.js";
import { templateDefaultsInputSchema, templateDefaultsSchema } from "../../shared/schemas/template.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { getTemplateDefaults } from "../services/profiles/get-template-defaults.js";
import { saveTemplateDefaults } from "../services/profiles/save-template-defaults.js";

const tags = ["perfil"];

/** /profile/templates: each user's own default texts (any role: it is their own profile). */
export const templateDefaultsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addHook("preHandler", requireUser);

  app.get(
    "/api/me/template-defaults",
    {
      schema: {
        tags,
        summary: "Textos padrão do usuário para riscos, benefícios, cuidados e valor",
        response: { 200: templateDefaultsSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "app.use");
      return getTemplateDefaults(db, actor);
    },
  );

  app.put(
    "/api/me/template-defaults",
    {
      schema: {
        tags,
        summary: "Salva os textos padrão do usuário (em branco → vazio)",
        body: templateDefaultsInputSchema,
        response: { 200: templateDefaultsSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "app.use");
      return saveTemplateDefaults(db, actor, request.body, {
        ip: request.ip,
        userAgent: request.headers["user-agent"],
      });
    },
  );
};
