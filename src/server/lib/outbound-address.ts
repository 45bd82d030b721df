/**
 * Requests to addresses that come from certificates or configuration — revocation lists, OCSP,
 * time-stamp authorities (decision 053) — never go to this machine or its private network:
 * loopback, link-local (the cloud metadata endpoint 169.254.169.254), private, shared (CGNAT),
 * multicast and reserved ranges, IPv4 and IPv6 (IPv4-mapped included). The host is resolved and
 * every address it resolves to is checked, at each redirect hop too (redirects are followed by hand).
 *
 * OUTBOUND_ALLOW_PRIVATE_NETWORK=true lifts this for an operator whose authority is internal, and
 * for the tests' local fakes; it is off unless set.
 *
 * Left: a host that resolves to a public address when checked and to a private one when fetch
 * resolves it again (DNS rebinding) is not caught; the window is one lookup.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(network, prefix, "ipv6");

/** A request refused because of where it would go. `message` is pt-BR. */
export class OutboundAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutboundAddressError";
  }
}

export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

/** Whether an IP address (v4 or v6) is in a range we do not send requests to. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, "ipv4");
  return blocked.check(address, "ipv6");
}

export interface OutboundOptions {
  /** OUTBOUND_ALLOW_PRIVATE_NETWORK: the operator allows private targets. */
  allowPrivateNetwork?: boolean | undefined;
  /** Redirects followed at most (0: a redirect is an error). */
  maxRedirects?: number;
  fetch?: typeof globalThis.fetch;
  resolve?: Resolver;
}

/** Refuses a URL that is not http(s), or whose host is or resolves to a private address. */
export async function checkOutboundUrl(url: URL, options: OutboundOptions = {}): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new OutboundAddressError(`o endereço ${url.href} não é http(s)`);
  if (options.allowPrivateNetwork) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch {
      throw new OutboundAddressError(`o endereço ${host} não foi encontrado (DNS)`);
    }
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress))
    throw new OutboundAddressError(
      `o endereço ${host} é desta máquina ou de uma rede privada: o servidor não faz pedidos a ele`,
    );
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** fetch, with each hop's address checked and redirects followed by hand. */
export async function fetchOutbound(url: string, init: RequestInit, options: OutboundOptions = {}): Promise<Response> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const maxRedirects = options.maxRedirects ?? 5;
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    await checkOutboundUrl(current, options);
    const response = await doFetch(current.href, { ...init, redirect: "manual" });
    const location = response.headers.get("location");
    if (!REDIRECTS.has(response.status) || !location) return response;
    await response.body?.cancel().catch(() => undefined);
    if (hop >= maxRedirects) throw new OutboundAddressError(`redirecionamentos demais a partir de ${url}`);
    current = new URL(location, current);
  }
}
