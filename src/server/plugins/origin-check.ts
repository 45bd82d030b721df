import fp from "fastify-plugin";
import { AppError } from "../errors.js";
import { bearerTokenOf, SESSION_COOKIE } from "./auth.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence for state-changing requests on top of SameSite=Lax cookies: a browser request
 * must come from our own origin. Requests without browser headers (CLI, tests) pass, and so do
 * Bearer requests without a cookie (API keys, decision 058).
 */
export const originCheckPlugin = fp<{ publicUrl?: string }>(async (app, options) => {
  const configured = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  app.addHook("onRequest", async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith("/api/")) return;
    // A Bearer request without a session cookie carries no ambient credential a page could
    // borrow: the key's holder is the caller (decision 058). With a cookie, the check applies.
    if (bearerTokenOf(request.headers.authorization) !== null && !request.cookies[SESSION_COOKIE]) return;
    const origin = request.headers.origin;
    if (origin) {
      const host = request.headers.host;
      const allowed = new Set<string>();
      if (configured) allowed.add(configured);
      if (host) {
        allowed.add(`http://${host}`);
        allowed.add(`https://${host}`);
      }
      if (!allowed.has(origin)) throw new AppError("ORIGIN_MISMATCH");
      return;
    }
    if (request.headers["sec-fetch-site"] === "cross-site") throw new AppError("ORIGIN_MISMATCH");
  });
});
