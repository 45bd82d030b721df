import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { sha256Hex } from "../lib/content-hash.js";

/** Where file bytes live (DESIGN §1): a directory by default, an S3 bucket later. */
export interface FileStorage {
  /** Stores the bytes under their SHA-256 (idempotent) and returns that key. */
  put(bytes: Uint8Array): Promise<{ sha256: string; size: number }>;
  /** The bytes stored under the key, or null when absent. */
  get(sha256: string): Promise<Buffer | null>;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Content-addressed directory: files/ab/cd/abcd…; written to a temporary name then renamed, so a
 * reader never sees half a file.
 */
export function createLocalFileStorage(root: string): FileStorage {
  const pathOf = (sha256: string) => path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  return {
    async put(bytes) {
      const sha256 = sha256Hex(bytes);
      const target = pathOf(sha256);
      const existing = await stat(target).catch(() => null);
      if (existing?.size === bytes.byteLength) return { sha256, size: bytes.byteLength };
      await mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
      await writeFile(temporary, bytes, { mode: 0o600 });
      await rename(temporary, target);
      return { sha256, size: bytes.byteLength };
    },
    async get(sha256) {
      if (!SHA256_HEX.test(sha256)) return null;
      try {
        return await readFile(pathOf(sha256));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
  };
}
