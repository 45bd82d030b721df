import type { FastifyInstance } from "fastify";

interface InjectOptions {
  method?: string;
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

/**
 * `app.inject()` over real HTTP, for a server in another process: the test helpers that take a
 * FastifyInstance (sign-up, templates, documents, signing) drive it unchanged.
 */
export function httpApp(baseUrl: string): FastifyInstance {
  const inject = async (options: InjectOptions) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    let body: string | undefined;
    if (options.payload !== undefined) {
      body = typeof options.payload === "string" ? options.payload : JSON.stringify(options.payload);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(`${baseUrl}${options.url}`, { method: options.method ?? "GET", headers, body });
    const text = await response.text();
    const cookies = response.headers.getSetCookie().map((line) => {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1) };
    });
    return {
      statusCode: response.status,
      body: text,
      headers: Object.fromEntries(response.headers.entries()),
      cookies,
      json: () => JSON.parse(text) as unknown,
    };
  };
  return { inject } as unknown as FastifyInstance;
}
