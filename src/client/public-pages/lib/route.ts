export type PublicRoute = { page: "sign" | "verify"; param: string } | { page: "verify-start" };

/** /assinar/:token, /verificar/:code (one segment each, trailing slash allowed) and /verificar. */
export function matchPublicRoute(pathname: string): PublicRoute | null {
  if (/^\/verificar\/?$/.test(pathname)) return { page: "verify-start" };
  const match = /^\/(assinar|verificar)\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  let param: string;
  try {
    param = decodeURIComponent(match[2]!);
  } catch {
    return null;
  }
  if (!param.trim()) return null;
  return { page: match[1] === "assinar" ? "sign" : "verify", param };
}
