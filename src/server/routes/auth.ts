import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { text } from "../../shared/schemas/safe-input.js";
import type { Db } from "../../db/client.js";
import { passwordResetConfirmSchema, passwordResetRequestSchema, signInSchema } from "../../shared/schemas/auth.js";
import { currentUserSchema } from "../../shared/schemas/me.js";
import { signUpSchema } from "../../shared/schemas/signup.js";
import type { Env } from "../env.js";
import { AppError } from "../errors.js";
import { clearSessionCookie, currentUser, requireUser, SESSION_COOKIE, setSessionCookie } from "../plugins/auth.js";
import { siteOrigin } from "../lib/origin.js";
import { presentCurrentUser } from "../presenters/profile.js";
import { requestPasswordReset, resetPassword } from "../services/auth/password-reset.js";
import { createSession, deleteSession } from "../services/auth/sessions.js";
import { checkCredentials } from "../services/auth/sign-in.js";
import { signUp } from "../services/auth/sign-up.js";
import { getCurrentProfile } from "../services/profiles/get-current-profile.js";
import { unlockFrontDesk } from "../services/auth/unlock-session.js";

interface AuthRouteOptions {
  db: Db;
  env: Env;
  authRateLimit: { max: number; timeWindow: string };
}

const ok = z.object({ ok: z.literal(true) });

export const authRoutes: FastifyPluginAsyncZod<AuthRouteOptions> = async (app, { db, env, authRateLimit }) => {
  const secure = env.NODE_ENV === "production";
  const limited = { rateLimit: authRateLimit };

  app.post(
    "/api/auth/sign-up",
    {
      config: limited,
      schema: {
        tags: ["autenticação"],
        summary: "Cadastra um estabelecimento ou profissional independente (tenant + proprietário)",
        body: signUpSchema,
        response: { 201: z.object({ tenant_id: text(), profile_id: text() }) },
      },
    },
    async (request, reply) => {
      const result = await signUp(db, request.body);
      request.log.info({ tenantId: result.tenantId, profileId: result.profileId }, "tenant signed up");
      return reply.status(201).send({ tenant_id: result.tenantId, profile_id: result.profileId });
    },
  );

  app.post(
    "/api/auth/sign-in",
    {
      config: limited,
      schema: {
        tags: ["autenticação"],
        summary: "Entra e recebe o cookie de sessão",
        body: signInSchema,
        response: { 200: currentUserSchema },
      },
    },
    async (request, reply) => {
      let credentials;
      try {
        credentials = await checkCredentials(db, request.body.email, request.body.password, {
          origin: siteOrigin(env),
          box: app.services.secretBox,
        });
      } catch (error) {
        const retryAfter = error instanceof AppError ? error.extra.details?.retry_after_seconds : undefined;
        if (typeof retryAfter === "number") reply.header("retry-after", String(retryAfter));
        throw error;
      }
      const { profileId, tenantId } = credentials;
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

  app.post(
    "/api/auth/sign-out",
    { schema: { tags: ["autenticação"], summary: "Sai (encerra a sessão)", response: { 200: ok } } },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await deleteSession(db, token);
      clearSessionCookie(reply, secure);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/auth/unlock",
    {
      preHandler: requireUser,
      config: limited,
      schema: {
        tags: ["autenticação"],
        summary: "Desbloqueia o aparelho após uma assinatura presencial: a senha de quem o entregou ao paciente",
        body: z.object({
          senha_atual: text({ error: "Digite a sua senha" })
            .min(1, "Digite a sua senha")
            .max(200, "Senha longa demais"),
        }),
        response: { 200: ok },
      },
    },
    async (request) => {
      await unlockFrontDesk(db, currentUser(request), request.body.senha_atual, {
        ip: request.ip,
        userAgent: request.headers["user-agent"],
      });
      return { ok: true as const };
    },
  );

  app.get(
    "/api/auth/me",
    {
      preHandler: requireUser,
      schema: {
        tags: ["autenticação"],
        summary: "O usuário da sessão, com sua clínica",
        response: { 200: currentUserSchema },
      },
    },
    async (request) => {
      const { profile, tenant } = await getCurrentProfile(db, currentUser(request));
      return presentCurrentUser(profile, tenant);
    },
  );

  app.get(
    "/api/auth/session",
    {
      schema: {
        tags: ["autenticação"],
        summary:
          "A sessão atual: o usuário, ou null quando ninguém entrou (nunca 401); bloqueada durante uma assinatura presencial",
        response: { 200: z.object({ user: currentUserSchema.nullable(), bloqueada: z.boolean().optional() }) },
      },
    },
    async (request) => {
      if (!request.user) return { user: null };
      // Front-desk signing: the patient holds the device; nothing of the staff member shows until unlocked.
      if (request.user.locked) return { user: null, bloqueada: true };
      const { profile, tenant } = await getCurrentProfile(db, request.user);
      return { user: presentCurrentUser(profile, tenant) };
    },
  );

  app.post(
    "/api/auth/password-reset/request",
    {
      config: limited,
      schema: {
        tags: ["autenticação"],
        summary: "Envia por e-mail um link para redefinir a senha",
        body: passwordResetRequestSchema,
        response: { 202: ok },
      },
    },
    async (request, reply) => {
      await requestPasswordReset(db, {
        email: request.body.email,
        origin: siteOrigin(env),
        box: app.services.secretBox,
      });
      return reply.status(202).send({ ok: true as const });
    },
  );

  app.post(
    "/api/auth/password-reset/confirm",
    {
      config: limited,
      schema: {
        tags: ["autenticação"],
        summary: "Define a nova senha a partir do link recebido",
        body: passwordResetConfirmSchema,
        response: { 200: ok },
      },
    },
    async (request) => {
      await resetPassword(db, { token: request.body.token, password: request.body.password });
      return { ok: true as const };
    },
  );
};
