/**
 * The API routes that answer without a session. Everything else under /api needs one, and the
 * auth plugin refuses it with 401 before the body is even validated (no schema oracle for
 * strangers); route-level `requireUser` stays as a second wall. The OpenAPI document marks these
 * `security: []` from the same list, and tests/integration/openapi-lint.test.ts checks both agree
 * with what the app does. A new route is private unless it is added here.
 */
const PUBLIC_ROUTES = [
  /^\/api\/health$/,
  /^\/api\/auth\/(sign-in|sign-up|sign-out|session|password-reset\/)/,
  /^\/api\/public\//,
  /^\/api\/invitations\//,
  /^\/api\/cep\//,
  /^\/api\/dev\//,
  /^\/api\/docs(\/|$)/,
  // Webhooks of outside systems prove themselves by signature, not by session (decision 059).
  /^\/api\/webhooks\//,
];

/** `url` as the route was registered (e.g. /api/documents/:id). */
export const isPublicRoute = (url: string) => PUBLIC_ROUTES.some((pattern) => pattern.test(url));
