import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import fp from "fastify-plugin";
import { errorBody } from "../errors.js";
import { VERIFIER_PAGE, verifierPageCsp } from "./verifier-page-csp.js";

/** The public pages (signing link, verification) answer their own small bundle, sign.html. */
const PUBLIC_PAGE = /^\/(assinar|verificar)(\/|\?|$)/;
/** A signing link's page: /assinar/<token>, trailing slash and query allowed. */
const SIGNING_PAGE = /^\/assinar\/([^/?#]+)\/?(\?|$)/;

/**
 * The CSP helmet set, with `frame-ancestors 'none'` opened to the page itself and the clinic's
 * allowed sites (decision 071). Exported for its test.
 */
export function withFrameAncestors(csp: string, origins: readonly string[]): string {
  const directive = `frame-ancestors 'self' ${origins.join(" ")}`;
  return /frame-ancestors [^;]*/.test(csp)
    ? csp.replace(/frame-ancestors [^;]*/, directive)
    : `${csp.replace(/;?\s*$/, "")};${directive}`;
}

/**
 * Serves the built React app from dist/client, with the SPA fallback: any GET that is not an
 * API call or a file answers index.html, and the client router decides (including not-found).
 * /assinar/* and /verificar/* answer sign.html instead (DESIGN.md §1, §6), without a referrer.
 * Hashed files under assets/ are immutable for a year; the HTML is revalidated every time.
 */
export const clientAppPlugin = fp<{
  clientDir: string;
  serveSourceMaps?: boolean;
  /** The sites that may frame a signing link's page (decision 071); none: not embeddable. */
  embedOriginsFor?: (token: string) => Promise<string[]>;
}>(async (app, options) => {
  const indexFile = path.join(options.clientDir, "index.html");
  const signFile = path.join(options.clientDir, "sign.html");
  const hasClient = existsSync(indexFile);
  const hasPublicPages = existsSync(signFile);
  // The saveable verifier's own policy, for the bytes on disk (decision 077, amended); made again
  // when a build rewrites the file.
  const verifierFile = path.join(options.clientDir, "verificador.html");
  let verifierPolicy: { mtimeMs: number; csp: string } | null = null;
  const verifierCsp = () => {
    const { mtimeMs } = statSync(verifierFile);
    if (verifierPolicy?.mtimeMs !== mtimeMs)
      verifierPolicy = { mtimeMs, csp: verifierPageCsp(readFileSync(verifierFile, "utf8")) };
    return verifierPolicy.csp;
  };
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: options.clientDir,
      wildcard: false,
      index: false,
      maxAge: "1y",
      immutable: true,
      // dist/client holds .br and .gz twins made at build (scripts/precompress.mjs): sent as they
      // are to browsers that accept them, with Vary: Accept-Encoding.
      preCompressed: true,
      // Source maps stay on the server's disk in production (they expose the source).
      allowedPath: (pathName) => options.serveSourceMaps !== false || !pathName.endsWith(".map"),
      setHeaders(reply, filePath) {
        if (!filePath.includes(`${path.sep}assets${path.sep}`)) reply.header("cache-control", "no-cache");
        if (VERIFIER_PAGE.test(filePath)) reply.header("content-security-policy", verifierCsp());
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const isApi = request.url.startsWith("/api/") || request.url === "/api";
    if (isApi || (request.method !== "GET" && request.method !== "HEAD")) {
      return reply.status(404).send(errorBody("NOT_FOUND"));
    }
    // A missing file (a stale hash, a hidden source map) is a 404, not the app's HTML.
    if (/\/assets\/|\.map(\?|$)/.test(request.url)) {
      return reply.status(404).type("text/plain; charset=utf-8").send("Arquivo não encontrado.");
    }
    if (!hasClient) {
      return reply
        .status(503)
        .type("text/plain; charset=utf-8")
        .send("A interface não foi compilada. Rode `npm run build` (ou `npm start`, que compila quando preciso).");
    }
    if (hasPublicPages && PUBLIC_PAGE.test(request.url)) {
      const signing = SIGNING_PAGE.exec(request.url);
      if (signing && options.embedOriginsFor) {
        let token: string | null;
        try {
          token = decodeURIComponent(signing[1]!);
        } catch {
          token = null;
        }
        const origins = token ? await options.embedOriginsFor(token) : [];
        const csp = reply.getHeader("content-security-policy");
        if (origins.length > 0 && typeof csp === "string") {
          // frame-ancestors decides; X-Frame-Options (SAMEORIGIN from helmet) would contradict it in old browsers.
          reply.header("content-security-policy", withFrameAncestors(csp, origins)).removeHeader("x-frame-options");
        }
      }
      return reply
        .header("cache-control", "no-cache")
        .header("referrer-policy", "no-referrer")
        .header("x-robots-tag", "noindex, nofollow")
        .sendFile("sign.html");
    }
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  });
});
