import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A certificate authority's list repository (decision 048): serves each path's DER CRL as
 * application/pkix-crl over plain HTTP, as ICP-Brasil authorities do; a path may answer an HTTP
 * error or hang instead. Counts the requests per path. A path may also answer POSTs (an OCSP
 * responder, decision 082) with what its handler makes of the request body.
 */
export async function startCrlServer() {
  const lists = new Map<string, Buffer>();
  const failures = new Map<string, number | "hang">();
  const hits = new Map<string, number>();
  const redirects = new Map<string, string>();
  const responders = new Map<string, (body: Buffer) => Promise<Buffer>>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const responder = responders.get(path);
    if (request.method === "POST" && responder && !failures.has(path)) {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        responder(Buffer.concat(chunks)).then(
          (der) =>
            response
              .writeHead(200, { "content-type": "application/ocsp-response", "content-length": der.length })
              .end(der),
          () => response.writeHead(400).end(),
        );
      });
      return;
    }
    const to = redirects.get(path);
    if (to) return void response.writeHead(302, { location: to }).end();
    const failure = failures.get(path);
    if (failure === "hang") return;
    if (failure !== undefined) return void response.writeHead(failure).end();
    const list = lists.get(path);
    if (!list) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/pkix-crl", "content-length": list.length }).end(list);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    /** Serve `der` at `path` (and stop failing there). */
    publish(path: string, der: Buffer) {
      failures.delete(path);
      lists.set(path, der);
    },
    /** Answer POSTs to `path` with `handler(body)` (and stop failing there). */
    respond(path: string, handler: (body: Buffer) => Promise<Buffer>) {
      failures.delete(path);
      responders.set(path, handler);
    },
    /** Answer `path` with a 302 to `to` (any address). */
    redirect(path: string, to: string) {
      redirects.set(path, to);
    },
    fail(path: string, how: number | "hang") {
      failures.set(path, how);
    },
    hits: (path: string) => hits.get(path) ?? 0,
    /** The list being served at `path`. */
    served: (path: string) => lists.get(path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type CrlServer = Awaited<ReturnType<typeof startCrlServer>>;
