/**
 * A local S3-compatible server for the tests (decision 030): s3rver, started in this process on
 * 127.0.0.1 with a scratch folder; it knows one access key (S3RVER/S3RVER; it does not check SigV4
 * signatures themselves, only that the key exists). Every
 * request's method, path and headers are recorded, so tests can see what the app sent on the wire
 * (the server-side-encryption header, no ACL). Nothing leaves the machine.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingHttpHeaders, IncomingMessage, Server } from "node:http";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

export interface RecordedS3Request {
  method: string;
  /** Path and query, e.g. /bucket/files/ab12… */
  url: string;
  headers: IncomingHttpHeaders;
}

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** The env a Consentir process needs to use this bucket (path-style, test credentials). */
  env: Record<string, string>;
  requests: RecordedS3Request[];
  /**
   * The recorded requests that create an object: a PUT of a whole object, or the start of a
   * multipart upload (where S3 takes the encryption header; the parts themselves carry none).
   */
  objectCreations(): RecordedS3Request[];
  close(): Promise<void>;
}

export async function startLocalS3(bucket = "consentir-teste"): Promise<LocalS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "consentir-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const requests: RecordedS3Request[] = [];
  (server as unknown as { httpServer: Server }).httpServer.on("request", (request: IncomingMessage) => {
    requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    requests,
    objectCreations: () =>
      requests.filter(
        (r) =>
          (r.method === "PUT" && !/[?&]partNumber=/.test(r.url)) ||
          (r.method === "POST" && /[?&]uploads(=|&|$)/.test(r.url)),
      ),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
