/**
 * One POST to a clinic's webhook endpoint (decision 062). The URL is the clinic's own input, so
 * it never reaches this machine or a private network unless WEBHOOKS_ALLOW_PRIVATE: the host is
 * resolved, every address it resolves to is checked, and the connection goes to the address that
 * was checked (no second lookup, so no DNS rebinding between check and connect). Redirects are not
 * followed (a 3xx is a failed attempt). The whole exchange — connect, TLS, answer — is cut at
 * `timeoutMs`; the answer's body is read up to 4 KiB and dropped.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isPrivateAddress } from "../../lib/outbound-address.js";

export interface WebhookPostResult {
  /** The HTTP status, or null when there was no answer. */
  status: number | null;
  durationMs: number;
  /** pt-BR, for the delivery log: why it did not work (null on 2xx). */
  error: string | null;
}

export interface PostOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** Tests: resolve names without DNS. */
  resolve?: (host: string) => Promise<string[]>;
}

const MAX_ANSWER_BYTES = 4096;

export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: PostOptions,
): Promise<WebhookPostResult> {
  const started = performance.now();
  const done = (status: number | null, error: string | null): WebhookPostResult => ({
    status,
    durationMs: Math.round(performance.now() - started),
    error,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return done(null, "URL inválida");
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") return done(null, "URL não é http(s)");
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const resolve =
    options.resolve ?? (async (name: string) => (await dnsLookup(name, { all: true })).map((a) => a.address));

  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return done(null, `O endereço ${host} não foi encontrado (DNS)`);
    }
  }
  if (addresses.length === 0) return done(null, `O endereço ${host} não foi encontrado (DNS)`);
  if (!options.allowPrivate && addresses.some(isPrivateAddress))
    return done(null, `Endereço recusado: ${host} é desta máquina ou de uma rede privada`);
  const address = addresses[0]!;
  // The connection goes to the address checked above, never to a second lookup's answer.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    const family = isIP(address);
    if (lookupOptions.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

  return new Promise<WebhookPostResult>((resolvePromise) => {
    let settled = false;
    const finish = (status: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolvePromise(done(status, error));
    };
    const client = target.protocol === "https:" ? https : http;
    const request = client.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "content-length": Buffer.byteLength(body).toString() },
        lookup: pinned,
        agent: false,
        ...(isIP(host) ? {} : { servername: host }),
      },
      (response) => {
        const status = response.statusCode ?? null;
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const close = () => {
          if (status !== null && status >= 200 && status < 300) finish(status, null);
          else if (status !== null && status >= 300 && status < 400)
            finish(status, `Redirecionamento (${status}) não seguido`);
          else finish(status, `Resposta HTTP ${status ?? "?"}`);
        };
        response.on("end", close);
        response.on("close", close);
        response.on("error", close);
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error("timeout"));
      finish(null, `Sem resposta em ${(options.timeoutMs / 1000).toLocaleString("pt-BR")} s`);
    }, options.timeoutMs);
    timer.unref();
    request.on("error", (error) => finish(null, `Falha de conexão: ${error.message}`.slice(0, 300)));
    request.end(body);
  });
}
