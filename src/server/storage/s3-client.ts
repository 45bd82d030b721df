import { S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import type { S3Settings } from "./s3-settings.js";

/**
 * One S3 client per process. Checksums only where S3 requires them (other S3-compatible services
 * do not all accept the SDK's default CRC32 trailers); we send Content-MD5 ourselves on each PUT.
 * Timeouts keep a stalled service from holding a request or a job forever.
 */
export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    forcePathStyle: settings.forcePathStyle,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
}

/** A 404 from S3 (GetObject's NoSuchKey, HeadObject's bodiless NotFound). */
export function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException)
    return error.$metadata.httpStatusCode === 404 || error.name === "NoSuchKey" || error.name === "NotFound";
  return false;
}

/** `x-amz-server-side-encryption` for a write: S3-managed keys (SSE-S3), unless turned off. */
export const sseOf = (settings: Pick<S3Settings, "serverSideEncryption">) =>
  settings.serverSideEncryption ? { ServerSideEncryption: "AES256" as const } : {};
