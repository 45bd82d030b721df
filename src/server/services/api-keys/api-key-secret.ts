import { randomBytes, timingSafeEqual } from "node:crypto";
import { API_KEY_PATTERN, API_KEY_PREFIX, API_KEY_VISIBLE_CHARS } from "../../../shared/schemas/api-keys.js";
import { sha256Hex } from "../../lib/content-hash.js";

/**
 * A new key: 256 random bits after `csk_live_`. Only its SHA-256 is stored — a fast hash is
 * enough for a secret with 256 bits of entropy (no dictionary to try), and it lets the key be
 * found by its hash through a unique index (decision 058).
 */
export function newApiKeySecret(): { secret: string; prefixo: string; hash: string } {
  const secret = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { secret, prefixo: visiblePrefix(secret), hash: sha256Hex(secret) };
}

export const visiblePrefix = (secret: string) => secret.slice(0, API_KEY_PREFIX.length + API_KEY_VISIBLE_CHARS);

/** The hash to look a presented key up by, or null when it cannot be a key of ours. */
export function apiKeyHashOf(presented: string): string | null {
  return API_KEY_PATTERN.test(presented) ? sha256Hex(presented) : null;
}

/** Compares two hex SHA-256 digests in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length === 32 && timingSafeEqual(left, right);
}
