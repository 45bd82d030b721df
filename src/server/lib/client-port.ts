/**
 * The TCP source port of the signer's own connection, for the evidence (Marco Civil: behind
 * carrier-grade NAT, an IP address identifies a subscriber only with its port and time).
 *
 * - A direct connection (the address the app records is the socket's own): the socket's port.
 * - Through a trusted proxy (TRUST_PROXY; the address came from X-Forwarded-For): the socket's port
 *   is the proxy's, never the signer's. The port is taken from the header the proxy is configured
 *   to set (CLIENT_PORT_HEADER, e.g. nginx `proxy_set_header X-Client-Port $remote_port;`), and
 *   is unknown (null) without one — the registry then says it was not recorded.
 */
export interface PortSource {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string; remotePort?: number };
}

export function clientPort(request: PortSource, header?: string): number | null {
  const direct = request.socket.remoteAddress !== undefined && request.ip === request.socket.remoteAddress;
  if (direct) return request.socket.remotePort ?? null;
  if (!header) return null;
  const value = request.headers[header.toLowerCase()];
  const text = Array.isArray(value) ? value[value.length - 1] : value;
  if (!text || !/^\d{1,5}$/.test(text.trim())) return null;
  const port = Number(text.trim());
  return port >= 1 && port <= 65535 ? port : null;
}
