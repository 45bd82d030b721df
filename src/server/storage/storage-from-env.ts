import path from "node:path";
import { type Env, resolveDataDir } from "../env.js";
import { createLocalFileStorage, type FileStorage } from "./file-storage.js";
import { s3SettingsFromEnv } from "./s3-settings.js";

export type StorageEnv = Pick<
  Env,
  | "DATA_DIR"
  | "S3_BUCKET"
  | "S3_ENDPOINT"
  | "S3_REGION"
  | "S3_ACCESS_KEY_ID"
  | "S3_SECRET_ACCESS_KEY"
  | "S3_FORCE_PATH_STYLE"
  | "S3_SERVER_SIDE_ENCRYPTION"
>;

/**
 * The configured file storage: the S3-compatible bucket when S3_BUCKET is set, else DATA_DIR/files.
 * The AWS SDK is loaded only when a bucket is configured.
 */
export async function createFileStorage(env: StorageEnv): Promise<FileStorage & { close?: () => void }> {
  const s3 = s3SettingsFromEnv(env);
  if (!s3) return createLocalFileStorage(path.join(resolveDataDir(env), "files"));
  const { createS3FileStorage } = await import("./s3-file-storage.js");
  return createS3FileStorage(s3);
}
