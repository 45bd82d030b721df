import { randomBytes } from "node:crypto";
import { sha256Hex } from "./content-hash.js";

/** A 256-bit random token for links and cookies; only its hash is ever stored. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What is stored of a token: its SHA-256. */
export const hashToken = (token: string): string => sha256Hex(token);
