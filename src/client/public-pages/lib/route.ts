export type PublicRoute = { page: "sign" | "verify"; param: string };

/** /assinar/:token and /verificar/:code (one segment each, trailing slash allowed). */
export function matchPublicRoute(pathname: string): PublicRoute | null {
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
