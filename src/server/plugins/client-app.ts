import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import fp from "fastify-plugin";
import { errorBody } from "../errors.js";

/**
 * Serves the built React app from dist/client, with the SPA fallback: any GET that is not an
 * API call or a file answers index.html, and the client router decides (including not-found).
 */
export const clientAppPlugin = fp<{ clientDir: string }>(async (app, options) => {
  const indexFile = path.join(options.clientDir, "index.html");
  const hasClient = existsSync(indexFile);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: options.clientDir,
      wildcard: false,
      index: false,
      maxAge: "1y",
      immutable: true,
      setHeaders(reply, filePath) {
        if (!filePath.includes(`${path.sep}assets${path.sep}`)) reply.header("cache-control", "no-cache");
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith("/api/") || request.url === "/api";
    if (isApi || (request.method !== "GET" && request.method !== "HEAD")) {
      return reply.status(404).send(errorBody("NOT_FOUND"));
    }
    if (!hasClient) {
      return reply
        .status(503)
        .type("text/plain; charset=utf-8")
        .send("A interface não foi compilada. Rode `npm run build` (ou `npm start`, que compila quando preciso).");
    }
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  });
});
