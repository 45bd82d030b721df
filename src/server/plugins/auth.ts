import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Db } from "../../db/client.js";
import { AppError } from "../errors.js";
import { isPublicRoute } from "./public-routes.js";
import { resolveSession, type SessionUser } from "../services/auth/sessions.js";

export const SESSION_COOKIE = "consentir_session";

/** The private routes a locked device may still call: unlock it, or sign out. */
const WHILE_LOCKED = new Set(["/api/auth/unlock"]);

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user, when the session cookie is valid. */
    user: SessionUser | null;
  }
}

export interface AuthPluginOptions {
  db: Db;
  secureCookies: boolean;
  sessionDays: number;
  /** SESSION_IDLE_HOURS: a session unused for longer is refused and deleted. */
  sessionIdleHours: number;
}

/**
 * Resolves the session cookie on every /api request into `request.user`, and refuses a private
 * route without one right away (401, before validation): see public-routes.ts.
 */
export const authPlugin = fp<AuthPluginOptions>(async (app, options) => {
  app.decorateRequest("user", null);
  app.addHook("onRequest", async (request) => {
    if (!request.url.startsWith("/api/")) return;
    const token = request.cookies[SESSION_COOKIE];
    request.user = token ? await resolveSession(options.db, token, { idleHours: options.sessionIdleHours }) : null;
    const route = request.routeOptions.url;
    if (route === undefined || !route.startsWith("/api/") || isPublicRoute(route)) return;
    if (!request.user) throw new AppError("UNAUTHENTICATED");
    // Front-desk signing: while the patient holds the device, nothing of the staff's is reachable.
    if (request.user.locked && !WHILE_LOCKED.has(route)) throw new AppError("SESSION_LOCKED");
  });
});

export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: Date, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure });
}

/** preHandler for every protected route: the tenant and actor come from here, never the request. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw new AppError("UNAUTHENTICATED");
}

/** The signed-in user in a handler that ran `requireUser`. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError("UNAUTHENTICATED");
  return request.user;
}

export type { FastifyInstance };
