import type { Env } from "../env.js";

/** How to reach the S3-compatible bucket (decision 030); null when S3_BUCKET is not set. */
export interface S3Settings {
  bucket: string;
  /** Another service than AWS (MinIO, R2, Wasabi, a local test server); AWS when absent. */
  endpoint?: string;
  region: string;
  /** Both or neither: without them the SDK's usual chain (instance role, AWS_* variables, profile). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** bucket in the path (http://host/bucket/key) instead of the host name: MinIO and most local servers. */
  forcePathStyle: boolean;
  /** `x-amz-server-side-encryption: AES256` on every write; off only for a server that refuses it. */
  serverSideEncryption: boolean;
}

type S3Env = Pick<
  Env,
  | "S3_BUCKET"
  | "S3_ENDPOINT"
  | "S3_REGION"
  | "S3_ACCESS_KEY_ID"
  | "S3_SECRET_ACCESS_KEY"
  | "S3_FORCE_PATH_STYLE"
  | "S3_SERVER_SIDE_ENCRYPTION"
>;

export function s3SettingsFromEnv(env: S3Env): S3Settings | null {
  if (!env.S3_BUCKET) return null;
  return {
    bucket: env.S3_BUCKET,
    ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
    region: env.S3_REGION,
    ...(env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } }
      : {}),
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    serverSideEncryption: env.S3_SERVER_SIDE_ENCRYPTION,
  };
}

/** Stored files live under this prefix of the bucket; backups under BACKUP_S3_PREFIX. */
export const FILES_PREFIX = "files/";
export const BACKUP_S3_PREFIX = "backups/";
