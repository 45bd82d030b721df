import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Db } from "../../db/client.js";
import { AppError } from "../errors.js";
import { type ApiKeyActor, runWithApiKey } from "../lib/request-api-key.js";
import { resolveApiKey } from "../services/api-keys/resolve-api-key.js";
import { isPublicRoute } from "./public-routes.js";
import { countRequest } from "./rate-limit-store.js";
import { isSessionOnlyRoute } from "./session-only-routes.js";
import { resolveSession, type SessionUser } from "../services/auth/sessions.js";

export const SESSION_COOKIE = "consentir_session";

/** The private routes a locked device may still call: unlock it, or sign out. */
const WHILE_LOCKED = new Set(["/api/auth/unlock"]);

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user, when the session cookie is valid. */
    user: SessionUser | null;
    /** The API key the request authenticated with (decision 058); null with a session or none. */
    apiKey: ApiKeyActor | null;
  }
}

/** The token of `Authorization: Bearer <token>`, "" for a Bearer header without one, or null without any. */
export function bearerTokenOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  return match ? (match[1] ?? "").trim() : null;
}

export interface AuthPluginOptions {
  db: Db;
  secureCookies: boolean;
  sessionDays: number;
  /** SESSION_IDLE_HOURS: a session unused for longer is refused and deleted. */
  sessionIdleHours: number;
  /** RATE_LIMIT_API_KEY_PER_MINUTE: requests per minute per API key, over every route. */
  apiKeyPerMinute: number;
}

/**
 * Resolves the session cookie on every /api request into `request.user`, and refuses a private
 * route without one right away (401, before validation): see public-routes.ts. On a private
 * route, `Authorization: Bearer <key>` gives the same `request.user` a session of the key's role
 * would (tenant, role, the key's creator as the profile), so every route works unchanged
 * (decision 058).
 */
export const authPlugin = fp<AuthPluginOptions>(async (app, options) => {
  app.decorateRequest("user", null);
  app.decorateRequest("apiKey", null);
  app.addHook("onRequest", async (request) => {
    if (!request.url.startsWith("/api/")) return;
    const token = request.cookies[SESSION_COOKIE];
    const bearer = bearerTokenOf(request.headers.authorization);
    const privateRoute = request.routeOptions.url;
    if (bearer !== null && privateRoute?.startsWith("/api/") && !isPublicRoute(privateRoute)) {
      // Decision 058: a key and a cookie together are refused, not resolved one way silently.
      if (token) throw new AppError("API_KEY_WITH_SESSION");
      const resolved = await resolveApiKey(options.db, bearer);
      if (!resolved) throw new AppError("API_KEY_INVALID");
      const [count] = await countRequest(options.db, [
        { namespace: "api-key", key: resolved.key.id, max: options.apiKeyPerMinute, timeWindow: 60_000 },
      ]);
      if (count && count.current > options.apiKeyPerMinute) {
        const error = new AppError("API_KEY_RATE_LIMITED");
        error.retryAfterSeconds = Math.max(1, Math.ceil(count.ttl / 1000));
        throw error;
      }
      if (isSessionOnlyRoute(privateRoute)) throw new AppError("API_KEY_SESSION_ONLY");
      request.user = resolved.user;
      request.apiKey = resolved.key;
      return;
    }
    request.user = token ? await resolveSession(options.db, token, { idleHours: options.sessionIdleHours }) : null;
    const route = request.routeOptions.url;
    if (route === undefined || !route.startsWith("/api/") || isPublicRoute(route)) return;
    if (!request.user) throw new AppError("UNAUTHENTICATED");
    // Front-desk signing: while the patient holds the device, nothing of the staff's is reachable.
    if (request.user.locked && !WHILE_LOCKED.has(route)) throw new AppError("SESSION_LOCKED");
  });
  // The handler and all it awaits run with the key in scope, so every audit event it writes names
  // it (decision 058). Callback style: the rest of the request runs inside `run`.
  app.addHook("preHandler", (request, _reply, done) => {
    if (request.apiKey) runWithApiKey(request.apiKey, done);
    else done();
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
