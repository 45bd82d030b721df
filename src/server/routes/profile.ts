import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import { currentUserSchema } from "../../shared/schemas/me.js";
import { passwordChangeSchema, profileUpdateSchema } from "../../shared/schemas/profile.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { changePassword } from "../services/profiles/change-password.js";
import { updateProfile } from "../services/profiles/update-profile.js";

const tags = ["perfil"];

/** /profile: the signed-in user's own data and password; who it is comes from the session only. */
export const profileRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.patch(
    "/api/profile",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "Altera os próprios dados (nome, telefone, conselho, especialidades; e-mail e CPF pedem a senha atual)",
        body: profileUpdateSchema,
        response: { 200: currentUserSchema },
      },
    },
    async (request) =>
      updateProfile({
        db,
        box: app.services.secretBox,
        actor: currentUser(request),
        input: request.body,
        audit: auditOf(request),
      }),
  );

  app.post(
    "/api/profile/password",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Troca a própria senha (a atual é conferida); encerra as outras sessões do usuário",
        body: passwordChangeSchema,
        response: { 200: z.object({ sessions_ended: z.number().int() }) },
      },
    },
    async (request) =>
      changePassword({ db, actor: currentUser(request), input: request.body, audit: auditOf(request) }),
  );
};
