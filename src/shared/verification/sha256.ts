/**
 * SHA-256 for the browser verifier (decision 077), synchronous: it hashes the small things (the
 * evidence JSON, each chain event), where WebCrypto's digest would make every step asynchronous.
 * Large inputs (the signed byte ranges) go to WebCrypto. @noble/hashes: audited, no dependencies.
 */
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex } from "@noble/hashes/utils";

export { sha256 };

export const sha256Hex = (data: Uint8Array | string): string =>
  bytesToHex(sha256(typeof data === "string" ? new TextEncoder().encode(data) : data));
