import canonicalize from "canonicalize";
import { sha256Hex } from "../storage/file-storage.js";

/** SHA-256 (hex) of the RFC 8785 canonical JSON of `value`: the same value always hashes the same. */
export function canonicalSha256(value: unknown): string {
  return sha256Hex(canonicalize(value) ?? "null");
}
