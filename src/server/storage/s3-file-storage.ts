import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { sha256Hex } from "../lib/content-hash.js";
import type { FileStorage } from "./file-storage.js";
import { SHA256_HEX } from "./file-storage.js";
import { createS3Client, isNotFound, sseOf } from "./s3-client.js";
import { FILES_PREFIX, type S3Settings } from "./s3-settings.js";

export interface S3FileStorage extends FileStorage {
  readonly client: S3Client;
  /** Closes the client's sockets (app shutdown). */
  close(): void;
}

/**
 * Stored files in an S3-compatible bucket (decision 030): `files/<sha256>`, private (no ACL is ever
 * sent: the bucket's own policy applies, which must block public access), encrypted at rest by the
 * service (`ServerSideEncryption: AES256` on every PUT), each PUT checked end to end by Content-MD5.
 * Objects are never served to browsers directly: the app reads them after its permission checks.
 */
export function createS3FileStorage(settings: S3Settings, client: S3Client = createS3Client(settings)): S3FileStorage {
  const Bucket = settings.bucket;
  const keyOf = (sha256: string) => `${FILES_PREFIX}${sha256}`;
  const sizeOf = async (sha256: string): Promise<number | null> => {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(sha256) }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  };
  const getObject = async (sha256: string) => {
    try {
      return await client.send(new GetObjectCommand({ Bucket, Key: keyOf(sha256) }));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  };
  return {
    client,
    location: `s3://${Bucket}/${FILES_PREFIX}`,
    async put(bytes) {
      const sha256 = sha256Hex(bytes);
      // Content-addressed: the same key always holds the same bytes, so a present object is the put done.
      if ((await sizeOf(sha256)) === bytes.byteLength) return { sha256, size: bytes.byteLength };
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: keyOf(sha256),
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentMD5: createHash("md5").update(bytes).digest("base64"),
          ContentType: "application/octet-stream",
          ...sseOf(settings),
        }),
      );
      return { sha256, size: bytes.byteLength };
    },
    async get(sha256) {
      if (!SHA256_HEX.test(sha256)) return null;
      const object = await getObject(sha256);
      if (!object?.Body) return null;
      const bytes = await object.Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async has(sha256) {
      if (!SHA256_HEX.test(sha256)) return false;
      return (await sizeOf(sha256)) !== null;
    },
    async stream(sha256) {
      if (!SHA256_HEX.test(sha256)) return null;
      const object = await getObject(sha256);
      // In Node the body is the HTTP response itself (a Readable): bytes flow as they arrive.
      return (object?.Body as Readable | undefined) ?? null;
    },
    close() {
      client.destroy();
    },
  };
}
