import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import fp from "fastify-plugin";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Smaller answers gain nothing worth a compression pass. */
export const API_COMPRESSION_MIN_BYTES = 1024;

/** Which encoding to use for this Accept-Encoding: brotli first, then gzip (q=0 refuses one). */
export function pickEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? "").toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (name && (!q || Number(q.slice(2)) > 0)) accepted.add(name.trim());
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return null;
}

/**
 * Compresses the API's JSON answers of 1 KB or more (lists, document details, the OpenAPI document)
 * with brotli (quality 4: fast, still well under gzip's size) or gzip, as the client accepts
 * (decision 033). Files under dist/client are precompressed at build (client-app.ts); streams
 * (PDFs, exports, server-sent events) and already encoded answers pass untouched.
 */
export const apiCompressionPlugin = fp(async (app) => {
  app.addHook("onSend", async (request, reply, payload) => {
    if (!request.url.startsWith("/api/") || request.method === "HEAD") return payload;
    if (typeof payload !== "string" || Buffer.byteLength(payload) < API_COMPRESSION_MIN_BYTES) return payload;
    if (reply.hasHeader("content-encoding") || !String(reply.getHeader("content-type") ?? "").includes("json"))
      return payload;
    reply.header("vary", appendVary(reply.getHeader("vary")));
    const encoding = pickEncoding(request.headers["accept-encoding"]);
    if (!encoding) return payload;
    const body =
      encoding === "br"
        ? await brotli(payload, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
          })
        : await gzipAsync(payload, { level: 6 });
    reply.header("content-encoding", encoding);
    reply.removeHeader("content-length");
    return body;
  });
});

function appendVary(current: unknown): string {
  const value = Array.isArray(current) ? current.join(", ") : typeof current === "string" ? current : "";
  if (/(^|,)\s*accept-encoding\s*(,|$)/i.test(value)) return value;
  return value ? `${value}, Accept-Encoding` : "Accept-Encoding";
}
