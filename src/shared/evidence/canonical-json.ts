import canonicalize from "canonicalize";

/** RFC 8785 canonical JSON text (the bytes that are embedded and hashed). No Node API: the browser verifier uses it too. */
export function canonicalJson(value: unknown): string {
  return canonicalize(value) ?? "null";
}
