/**
 * object storage (decision 030): one contract, two drivers. The same cases run against
 * the local directory (DATA_DIR/files) and the S3 driver talking to a local S3-compatible server
 * (s3rver, started here on 127.0.0.1; it knows only its own access key). Then what only the bucket
 * can show: every object-creating request asked for server-side encryption and sent no ACL, and
 * an app configured with S3_BUCKET keeps a signed document's files in the bucket (none on disk)
 * and serves the sealed PDF through its permission checks.
 */
import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contratos } from "../../src/db/schema.js";
import { loadEnv } from "../../src/server/env.js";
import { createLocalFileStorage, type FileStorage } from "../../src/server/storage/file-storage.js";
import { createS3FileStorage, type S3FileStorage } from "../../src/server/storage/s3-file-storage.js";
import { s3SettingsFromEnv } from "../../src/server/storage/s3-settings.js";
import { createFileStorage } from "../../src/server/storage/storage-from-env.js";
import { type LocalS3, startLocalS3 } from "../fakes/s3-server.js";
import { newClinic } from "../helpers/sessions.js";
import { signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, testEnv } from "../helpers/test-app.js";

const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-storage-"));
let s3: LocalS3;
const opened: S3FileStorage[] = [];

beforeAll(async () => {
  s3 = await startLocalS3();
});

afterAll(async () => {
  for (const storage of opened) storage.close();
  await s3?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function s3Storage(overrides: Record<string, string> = {}): S3FileStorage {
  const settings = s3SettingsFromEnv(loadEnv({ ...s3.env, ...overrides }));
  if (!settings) throw new Error("S3 settings expected");
  const storage = createS3FileStorage(settings);
  opened.push(storage);
  return storage;
}

/** Reads a stream to the end, counting its chunks and the largest one. */
async function drain(stream: Readable): Promise<{ sha256: string; bytes: number; chunks: number; largest: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  let chunks = 0;
  let largest = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    chunks += 1;
    largest = Math.max(largest, chunk.length);
  }
  return { sha256: hash.digest("hex"), bytes, chunks, largest };
}

const drivers: [string, () => FileStorage][] = [
  ["local directory", () => createLocalFileStorage(mkdtempSync(path.join(scratch, "files-")))],
  ["S3-compatible bucket", () => s3Storage()],
];

describe.each(drivers)("FileStorage contract: %s", (_name, make) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = make();
  });

  it("put returns the SHA-256 and size; get, has and stream give back the same bytes", async () => {
    const bytes = Buffer.from(`%PDF-1.7\n% contrato ${randomBytes(8).toString("hex")}\n%%EOF\n`);
    const stored = await storage.put(bytes);
    expect(stored).toEqual({ sha256: sha256(bytes), size: bytes.length });
    expect(await storage.get(stored.sha256)).toEqual(bytes);
    expect(await storage.has(stored.sha256)).toBe(true);
    const stream = await storage.stream(stored.sha256);
    expect(stream).not.toBeNull();
    expect(await drain(stream as Readable)).toMatchObject({ sha256: stored.sha256, bytes: bytes.length });
  });

  it("stores a Uint8Array view and an empty file like any other bytes", async () => {
    const backing = randomBytes(4096);
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 100, 1000);
    const stored = await storage.put(view);
    expect(stored).toEqual({ sha256: sha256(view), size: 1000 });
    expect(await storage.get(stored.sha256)).toEqual(Buffer.from(view));
    const empty = await storage.put(new Uint8Array(0));
    expect(empty.size).toBe(0);
    expect(await storage.get(empty.sha256)).toEqual(Buffer.alloc(0));
    expect(await storage.has(empty.sha256)).toBe(true);
  });

  it("a key never stored, or one that is not a SHA-256, is absent: get → null, has → false, stream → null", async () => {
    const never = sha256(randomBytes(32));
    for (const key of [never, "../../etc/passwd", never.toUpperCase(), "", `${never}x`]) {
      expect(await storage.get(key), key).toBeNull();
      expect(await storage.has(key), key).toBe(false);
      expect(await storage.stream(key), key).toBeNull();
    }
  });

  it("put is idempotent: the same bytes twice are one stored file with the same key", async () => {
    const bytes = randomBytes(10_000);
    const first = await storage.put(bytes);
    const second = await storage.put(Buffer.from(bytes));
    expect(second).toEqual(first);
    expect(await storage.get(first.sha256)).toEqual(bytes);
  });

  it("concurrent puts of the same content all succeed and leave one intact file", async () => {
    const bytes = randomBytes(2 * 1024 * 1024);
    const results = await Promise.all(Array.from({ length: 8 }, () => storage.put(Buffer.from(bytes))));
    expect(new Set(results.map((r) => r.sha256))).toEqual(new Set([sha256(bytes)]));
    const back = await storage.get(sha256(bytes));
    expect(back && sha256(back)).toBe(sha256(bytes));
  });

  it("streams a large file in pieces, never as one buffer", async () => {
    const bytes = randomBytes(40 * 1024 * 1024);
    const stored = await storage.put(bytes);
    const stream = await storage.stream(stored.sha256);
    const read = await drain(stream as Readable);
    expect(read.sha256).toBe(stored.sha256);
    expect(read.bytes).toBe(bytes.length);
    expect(read.chunks).toBeGreaterThan(8);
    expect(read.largest).toBeLessThanOrEqual(4 * 1024 * 1024);
  }, 60_000);
});

describe("S3 driver on the wire", () => {
  it("asks for server-side encryption on every object it creates, sends no ACL, checks each body with Content-MD5, keeps files under files/", async () => {
    const before = s3.requests.length;
    const storage = s3Storage();
    const stored = await storage.put(randomBytes(5000));
    await storage.put(randomBytes(6000));
    const created = s3.objectCreations().filter((r) => s3.requests.indexOf(r) >= before);
    expect(created).toHaveLength(2);
    for (const request of created) {
      expect(request.url.startsWith(`/${s3.bucket}/files/`), request.url).toBe(true);
      expect(request.headers["x-amz-server-side-encryption"]).toBe("AES256");
      expect(request.headers["content-md5"]).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    }
    // Nothing the app ever sent makes an object public.
    expect(
      s3.requests.filter(
        (r) => r.headers["x-amz-acl"] || r.headers["x-amz-grant-read"] || /[?&]acl(=|&|$)/.test(r.url),
      ),
    ).toEqual([]);
    // An idempotent put of present bytes reads the object's head and writes nothing.
    const writesBefore = s3.objectCreations().length;
    await storage.put((await storage.get(stored.sha256)) ?? Buffer.alloc(0));
    expect(s3.objectCreations().length).toBe(writesBefore);
  });

  it("a key that is not a SHA-256 never reaches the server", async () => {
    const before = s3.requests.length;
    const storage = s3Storage();
    expect(await storage.get("../files/segredo")).toBeNull();
    expect(await storage.stream("x")).toBeNull();
    expect(s3.requests.length).toBe(before);
  });

  it("S3_SERVER_SIDE_ENCRYPTION=false (a server that refuses the header) sends none", async () => {
    const before = s3.requests.length;
    await s3Storage({ S3_SERVER_SIDE_ENCRYPTION: "false" }).put(randomBytes(700));
    const created = s3.objectCreations().filter((r) => s3.requests.indexOf(r) >= before);
    expect(created).toHaveLength(1);
    expect(created[0]?.headers["x-amz-server-side-encryption"]).toBeUndefined();
  });

  it("credentials the server does not know are an error, never taken as a missing file", async () => {
    const storage = s3Storage({ S3_ACCESS_KEY_ID: "CHAVE-DESCONHECIDA" });
    await expect(storage.put(randomBytes(10))).rejects.toThrow();
    await expect(storage.get(sha256(Buffer.from("x")))).rejects.toThrow(/Access Key Id/);
    await expect(storage.has(sha256(Buffer.from("x")))).rejects.toThrow();
  });

  it("the driver follows the environment: S3_BUCKET picks the bucket, none the directory", async () => {
    const dataDir = path.join(scratch, "data-env");
    const local = await createFileStorage(loadEnv({ DATA_DIR: dataDir }));
    expect(local.location).toBe(path.join(dataDir, "files"));
    const bucket = await createFileStorage(loadEnv({ DATA_DIR: dataDir, ...s3.env }));
    expect(bucket.location).toBe(`s3://${s3.bucket}/files/`);
    bucket.close?.();
  });
});

describe("an app with S3_BUCKET", () => {
  it("keeps a signed document's files in the bucket and serves the sealed PDF only through its permission checks", async () => {
    const dataDir = path.join(scratch, "app-data");
    // Every process of one installation shares the instance key (docs/operations.md): on PostgreSQL the suite's
    // database already holds the instance seal, sealed with the other test apps' key.
    mkdirSync(dataDir, { recursive: true });
    const sharedKey = path.join(testEnv().DATA_DIR, "secret.key");
    if (existsSync(sharedKey)) copyFileSync(sharedKey, path.join(dataDir, "secret.key"));
    const ctx = await createTestApp({ env: { ...s3.env, DATA_DIR: dataDir } });
    try {
      expect(ctx.app.services.storage.location).toBe(`s3://${s3.bucket}/files/`);
      const clinic = await newClinic(ctx.app);
      const { documentId, patient } = await signableDocument(ctx.app, clinic);
      const sent = await ctx.app.inject({
        method: "POST",
        url: `/api/documents/${documentId}/send`,
        payload: {},
        headers: { cookie: clinic.cookie },
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const { response } = await signAsPatient(ctx.app, ctx.database, tokenOf(sent.json().link as string), patient);
      expect(response.statusCode, response.body).toBe(200);
      // On PostgreSQL the suite shares one database and its queue, where other files leave older due
      // jobs: this document's final PDF goes first (jobs are taken by run_at), then tick until sealed.
      await ctx.database.db.execute(
        sql`update jobs set run_at = 'epoch' where kind = 'document.finalize' and payload->>'contratoId' = ${documentId}`,
      );
      let sealed = "";
      for (let round = 0; round < 20 && !sealed; round++) {
        await ctx.app.worker.tick();
        const [document] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
        sealed = document?.signed_pdf_sha256 ?? "";
      }
      expect(sealed).toMatch(/^[0-9a-f]{64}$/);

      // The signature image and the sealed PDF are objects in the bucket; nothing went to DATA_DIR/files.
      const storage = s3Storage();
      const listed = await storage.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: "files/" }));
      expect(listed.Contents?.map((o) => o.Key)).toContain(`files/${sealed}`);
      expect(existsSync(path.join(dataDir, "files")) ? readdirSync(path.join(dataDir, "files")) : []).toEqual([]);

      const download = await ctx.app.inject({
        method: "GET",
        url: `/api/documents/${documentId}/signed-pdf`,
        headers: { cookie: clinic.cookie },
      });
      expect(download.statusCode).toBe(200);
      expect(download.headers["content-type"]).toBe("application/pdf");
      expect(sha256(download.rawPayload)).toBe(sealed);
      // Another clinic, and nobody signed in, get nothing from the bucket.
      const other = await newClinic(ctx.app);
      const refused = await ctx.app.inject({
        method: "GET",
        url: `/api/documents/${documentId}/signed-pdf`,
        headers: { cookie: other.cookie },
      });
      expect(refused.statusCode).toBe(404);
      expect((await ctx.app.inject({ method: "GET", url: `/api/documents/${documentId}/signed-pdf` })).statusCode).toBe(
        401,
      );
    } finally {
      await ctx.close();
    }
  }, 120_000);
});
