import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

/** SHA-256 (hex) of bytes or UTF-8 text: file addresses, token hashes, PDF fingerprints. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** SHA-256 (hex) of the RFC 8785 canonical JSON of `value`: the same value always hashes the same. */
export function canonicalSha256(value: unknown): string {
  return sha256Hex(canonicalize(value) ?? "null");
}
