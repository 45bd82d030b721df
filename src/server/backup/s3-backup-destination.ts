import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { createS3Client, isNotFound, sseOf } from "../storage/s3-client.js";
import type { S3Settings } from "../storage/s3-settings.js";
import { BackupError } from "./backup-error.js";
import type { BackupDestination } from "./backup-destination.js";

/** Multipart part size: 8 MiB parts allow backups up to ~80 GB (S3's 10,000-part limit). */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * Backups in the bucket under `prefix` (decision 030): streamed as a multipart upload while being
 * written (no local copy needed), each part checked by Content-MD5, encrypted at rest by the service
 * (SSE AES256 on the upload's start), private. An upload that never completes is no object at all —
 * a killed backup leaves nothing named as complete; its parts are dropped by abort, or by the bucket's
 * lifecycle rule (AbortIncompleteMultipartUpload, see docs/operations.md) when the process died.
 */
export function s3BackupDestination(
  settings: S3Settings,
  prefix: string,
  client: S3Client = createS3Client(settings),
): BackupDestination {
  const Bucket = settings.bucket;
  const keyOf = (name: string) => `${prefix}${name}`;
  return {
    location: `s3://${Bucket}/${prefix}`,
    async begin(name) {
      const Key = keyOf(name);
      const started = await client.send(
        new CreateMultipartUploadCommand({ Bucket, Key, ContentType: "application/octet-stream", ...sseOf(settings) }),
      );
      const UploadId = started.UploadId;
      if (!UploadId) throw new BackupError(`O serviço S3 não abriu o envio de ${Key}.`);
      const parts: { PartNumber: number; ETag: string }[] = [];
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const upload = async (body: Buffer) => {
        const PartNumber = parts.length + 1;
        const sent = await client.send(
          new UploadPartCommand({
            Bucket,
            Key,
            UploadId,
            PartNumber,
            Body: body,
            ContentLength: body.length,
            ContentMD5: createHash("md5").update(body).digest("base64"),
          }),
        );
        parts.push({ PartNumber, ETag: sent.ETag ?? "" });
      };
      const flush = async (all: boolean) => {
        while (pendingBytes >= PART_BYTES || (all && pendingBytes > 0)) {
          const joined = Buffer.concat(pending);
          const body = joined.subarray(0, Math.min(PART_BYTES, joined.length));
          const rest = joined.subarray(body.length);
          pending = rest.length > 0 ? [rest] : [];
          pendingBytes = rest.length;
          await upload(body);
        }
      };
      return {
        async write(data) {
          pending.push(data);
          pendingBytes += data.length;
          if (pendingBytes >= PART_BYTES) await flush(false);
        },
        async commit() {
          await flush(true);
          await client.send(
            new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }),
          );
          return `s3://${Bucket}/${Key}`;
        },
        async abort() {
          // Best effort: a service that cannot abort drops the parts by its lifecycle rule.
          await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
        },
      };
    },
    async exists(name) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(name) }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
    async list() {
      const names: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(prefix.length);
          if (name && !name.includes("/")) names.push(name);
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return names;
    },
    async remove(name) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(name) }));
    },
    async removeStale() {
      // Incomplete multipart uploads are not objects; the bucket's lifecycle rule removes them.
    },
    close() {
      client.destroy();
    },
  };
}

/** `s3://bucket/key` → its parts, or null for anything else. */
export function parseS3Uri(uri: string): { bucket: string; key: string } | null {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(uri);
  if (!match) return null;
  return { bucket: match[1] ?? "", key: match[2] ?? "" };
}

/**
 * `npm run backup -- s3://bucket[/prefix/]`: the configured bucket (credentials and endpoint come
 * from S3_*), prefix default backups/.
 */
export function s3DestinationFromUri(
  uri: string,
  settings: S3Settings | null,
  defaultPrefix: string,
): BackupDestination {
  const parsed = parseS3Uri(uri);
  if (!parsed) throw new BackupError(`Destino inválido: ${uri} (use s3://BUCKET ou s3://BUCKET/PREFIXO/).`);
  const s3 = requireBucket(settings, parsed.bucket);
  const prefix = parsed.key === "" ? defaultPrefix : parsed.key.endsWith("/") ? parsed.key : `${parsed.key}/`;
  return s3BackupDestination(s3, prefix);
}

/**
 * `npm run restore -- s3://bucket/key`: the backup is copied into a hidden file in `dir` (0600) —
 * a restore reads it twice, checking everything before touching anything — and removed after.
 */
export async function downloadS3Backup(
  uri: string,
  settings: S3Settings | null,
  dir: string,
): Promise<{ file: string; remove: () => Promise<void> }> {
  const parsed = parseS3Uri(uri);
  if (!parsed || parsed.key === "" || parsed.key.endsWith("/"))
    throw new BackupError(`Arquivo inválido: ${uri} (use s3://BUCKET/backups/consentir-backup-….cbk).`);
  const s3 = requireBucket(settings, parsed.bucket);
  const client = createS3Client(s3);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `.consentir-restore-${process.pid}-${randomBytes(4).toString("hex")}.cbk`);
  const remove = () => rm(file, { force: true });
  try {
    const object = await client
      .send(new GetObjectCommand({ Bucket: s3.bucket, Key: parsed.key }))
      .catch((error: unknown) => {
        if (isNotFound(error)) throw new BackupError(`Arquivo não encontrado: ${uri}`);
        throw error;
      });
    await pipeline(object.Body as Readable, createWriteStream(file, { mode: 0o600, flags: "wx" }));
    return { file, remove };
  } catch (error) {
    await remove();
    throw error;
  } finally {
    client.destroy();
  }
}

function requireBucket(settings: S3Settings | null, bucket: string): S3Settings {
  if (!settings)
    throw new BackupError(
      `Para usar s3://${bucket}, configure S3_BUCKET=${bucket} e as demais variáveis S3_* (endpoint, região, credenciais).`,
    );
  if (settings.bucket !== bucket)
    throw new BackupError(`O bucket configurado (S3_BUCKET) é ${settings.bucket}, não ${bucket}.`);
  return settings;
}
