import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import { currentUserSchema } from "../../shared/schemas/me.js";
import {
  invitationAcceptSchema,
  invitationInfoSchema,
  invitationLookupSchema,
  userCreateSchema,
  userListQuerySchema,
  userListSchema,
  userRoleSchema,
  userSchema,
  userStatusSchema,
  userUpdateSchema,
} from "../../shared/schemas/users.js";
import type { Env } from "../env.js";
import { siteOrigin } from "../lib/origin.js";
import { currentUser, requireUser, SESSION_COOKIE, setSessionCookie } from "../plugins/auth.js";
import { presentCurrentUser } from "../presenters/profile.js";
import { createSession, deleteSession } from "../services/auth/sessions.js";
import { getCurrentProfile } from "../services/profiles/get-current-profile.js";
import { createUser } from "../services/users/create-user.js";
import { acceptInvitation, lookupInvitation } from "../services/users/invitations.js";
import { listUsers } from "../services/users/list-users.js";
import { changeUserRole, resendInvitation, setUserActive } from "../services/users/manage-user.js";
import { updateUser } from "../services/users/update-user.js";

interface UserRouteOptions {
  db: Db;
  env: Env;
  /** The sign-in limit: invitation links are guessed at no faster than passwords. */
  authRateLimit: { max: number; timeWindow: string };
}

const idParams = z.object({ id: z.uuid("Usuário não encontrado") });
const tags = ["usuários"];

/**
 * /users (spec part 2 §2, §6; decision 017): the owner of an establishment lists, adds,
 * activates/deactivates and re-roles the clinic's users; the service answers 'Acesso negado' to
 * anyone else. /api/invitations/*: the public side of an invitation link.
 */
export const userRoutes: FastifyPluginAsyncZod<UserRouteOptions> = async (app, { db, env, authRateLimit }) => {
  const secure = env.NODE_ENV === "production";
  const contextOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    origin: siteOrigin(env),
    box: app.services.secretBox,
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.get(
    "/api/users",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Usuários da clínica, paginados e buscados no servidor (só o proprietário)",
        querystring: userListQuerySchema,
        response: { 200: userListSchema },
      },
    },
    async (request) => listUsers(db, currentUser(request), request.query),
  );

  app.post(
    "/api/users",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Adiciona um usuário à clínica, com senha ou convite por e-mail",
        body: userCreateSchema,
        response: { 201: userSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createUser(db, currentUser(request), request.body, contextOf(request))),
  );

  app.patch(
    "/api/users/:id",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Altera nome, função, conselho e especialidades de um usuário (a função do proprietário não muda)",
        params: idParams,
        body: userUpdateSchema,
        response: { 200: userSchema },
      },
    },
    async (request) =>
      updateUser({
        db,
        actor: currentUser(request),
        id: request.params.id,
        input: request.body,
        context: contextOf(request),
      }),
  );

  app.patch(
    "/api/users/:id/status",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Ativa ou desativa um usuário (desativar encerra as sessões dele)",
        params: idParams,
        body: userStatusSchema,
        response: { 200: userSchema },
      },
    },
    async (request) =>
      setUserActive({
        db,
        actor: currentUser(request),
        id: request.params.id,
        isActive: request.body.is_active,
        context: contextOf(request),
      }),
  );

  app.patch(
    "/api/users/:id/role",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Altera a função de um usuário",
        params: idParams,
        body: userRoleSchema,
        response: { 200: userSchema },
      },
    },
    async (request) =>
      changeUserRole({
        db,
        actor: currentUser(request),
        id: request.params.id,
        role: request.body.role,
        context: contextOf(request),
      }),
  );

  app.post(
    "/api/users/:id/invitation",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Reenvia o convite de quem ainda não criou a senha",
        params: idParams,
        response: { 202: userSchema },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await resendInvitation(db, currentUser(request), request.params.id, contextOf(request))),
  );

  app.post(
    "/api/invitations/lookup",
    {
      config: { rateLimit: authRateLimit },
      schema: {
        tags,
        summary: "Quem um link de convite convida (o token vai no corpo)",
        body: invitationLookupSchema,
        response: { 200: invitationInfoSchema },
      },
    },
    async (request) => lookupInvitation(db, request.body.token),
  );

  app.post(
    "/api/invitations/accept",
    {
      config: { rateLimit: authRateLimit },
      schema: {
        tags,
        summary: "Cria a senha a partir do convite e entra",
        body: invitationAcceptSchema,
        response: { 200: currentUserSchema },
      },
    },
    async (request, reply) => {
      const { profileId, tenantId } = await acceptInvitation(db, {
        token: request.body.token,
        password: request.body.password,
        ip: request.ip,
        userAgent: request.headers["user-agent"],
      });
      const previous = request.cookies[SESSION_COOKIE];
      if (previous) await deleteSession(db, previous);
      const session = await createSession(db, {
        tenantId,
        profileId,
        ip: request.ip,
        userAgent: request.headers["user-agent"],
        days: env.SESSION_DAYS,
      });
      setSessionCookie(reply, session.token, session.expiresAt, secure);
      const { profile, tenant } = await getCurrentProfile(db, { profileId, tenantId });
      return presentCurrentUser(profile, tenant);
    },
  );
};
