import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { sha256Hex } from "../lib/content-hash.js";

/**
 * Where file bytes live (DESIGN §1, decision 030): a directory by default, an S3-compatible bucket
 * with S3_BUCKET. Content-addressed: a file's key is its SHA-256, so a put is idempotent and the
 * same bytes stored twice are one object. Both drivers pass tests/integration/file-storage-contract.
 */
export interface FileStorage {
  /** Where the bytes are, for messages: a folder path or s3://bucket/prefix. */
  readonly location: string;
  /** Stores the bytes under their SHA-256 (idempotent) and returns that key. */
  put(bytes: Uint8Array): Promise<{ sha256: string; size: number }>;
  /** The bytes stored under the key, or null when absent (or the key is not a SHA-256). */
  get(sha256: string): Promise<Buffer | null>;
  /** Whether bytes are stored under the key (no body read). */
  has(sha256: string): Promise<boolean>;
  /** The bytes as a stream, for large files, or null when absent; the caller must consume or destroy it. */
  stream(sha256: string): Promise<Readable | null>;
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Content-addressed directory: files/ab/cd/abcd…; written to a temporary name then renamed, so a
 * reader never sees half a file.
 */
export function createLocalFileStorage(root: string): FileStorage {
  const pathOf = (sha256: string) => path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  const absent = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";
  return {
    location: root,
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
        if (absent(error)) return null;
        throw error;
      }
    },
    async has(sha256) {
      if (!SHA256_HEX.test(sha256)) return false;
      try {
        return (await stat(pathOf(sha256))).isFile();
      } catch (error) {
        if (absent(error)) return false;
        throw error;
      }
    },
    async stream(sha256) {
      if (!SHA256_HEX.test(sha256)) return null;
      try {
        // Opened first, so a missing file is null here rather than an error event later.
        const handle = await open(pathOf(sha256), "r");
        return handle.createReadStream({ highWaterMark: 1024 * 1024 });
      } catch (error) {
        if (absent(error)) return null;
        throw error;
      }
    },
  };
}
