import type { Env } from "../env.js";

/**
 * The site origin for every link we send or print (password reset, signing, verification QR):
 * PUBLIC_URL, else http://localhost:PORT. Never a request header — a forged Host must not
 * choose where a reset link points. Production refuses to start without PUBLIC_URL.
 */
export function siteOrigin(env: Pick<Env, "PUBLIC_URL" | "PORT">): string {
  return env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : `http://localhost:${env.PORT}`;
}
