import type { FastifyRequest } from "fastify";
import type { Env } from "../env.js";

/** The site origin for links we send (reset, signing): PUBLIC_URL, else the request's own. */
export function publicOrigin(request: FastifyRequest, env: Pick<Env, "PUBLIC_URL">): string {
  if (env.PUBLIC_URL) return new URL(env.PUBLIC_URL).origin;
  return `${request.protocol}://${request.host}`;
}
