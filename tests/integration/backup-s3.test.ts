/**
 * the bucket item (decision 030): backups in the S3-compatible bucket. Against local
 * S3-compatible servers started here (s3rver on 127.0.0.1): `npm run backup -- s3://BUCKET` streams
 * the encrypted file to backups/ as a multipart upload (SSE asked for, nothing left on disk);
 * `npm run restore -- s3://BUCKET/KEY` restores it — stored files into the target's bucket — and
 * checks the audit trail and the sealed PDF; bad s3:// addresses are refused in pt-BR; the daily
 * backup with BACKUP_S3=true writes to the bucket and the 7/4/12 rule prunes objects there; a
 * backup that fails half-way leaves no object.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { desc, eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";
import { projectRoot } from "../../src/db/paths.js";
import { backupRuns, contratos } from "../../src/db/schema.js";
import { backupFileName } from "../../src/server/backup/backup-file-name.js";
import { backupRootKey } from "../../src/server/backup/backup-keys.js";
import { pruneBackups } from "../../src/server/backup/prune-backups.js";
import { jsonPayload } from "../../src/server/backup/record-stream.js";
import { backupsToRemove } from "../../src/server/backup/retention.js";
import { s3BackupDestination } from "../../src/server/backup/s3-backup-destination.js";
import { writeBackupFile } from "../../src/server/backup/write-backup-file.js";
import { EnvError, loadEnv } from "../../src/server/env.js";
import { createS3Client } from "../../src/server/storage/s3-client.js";
import { s3SettingsFromEnv, type S3Settings } from "../../src/server/storage/s3-settings.js";
import { type LocalS3, startLocalS3 } from "../fakes/s3-server.js";
import { newClinic } from "../helpers/sessions.js";
import { signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp } from "../helpers/test-app.js";
import { nodeEntryArgs } from "../helpers/node-entry.js";

const onPostgres = process.env.TEST_DB === "postgres";
const adminUrl = process.env.TEST_DATABASE_URL;
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-backup-s3-"));
const SLOW = 180_000;
const APP_SECRET = "segredo-de-teste-do-backup-s3-0123456789-abcdef";
const cleanups: (() => Promise<void> | void)[] = [];
const dir = (name: string) => path.join(scratch, name);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  lastLine: string;
}

/** `npm run backup|restore` as the operator runs it (its compiled file, see node-entry.ts), with `env` only. */
function cli(
  script: "backup" | "restore",
  args: string[],
  env: Record<string, string>,
): Promise<CliResult> & { child: ChildProcess } {
  const child = spawn(process.execPath, [...nodeEntryArgs(`src/server/cli/${script}.ts`), ...args], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? os.tmpdir(),
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const done = new Promise<CliResult>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr, lastLine: stdout.trim().split("\n").at(-1) ?? "" })),
  );
  return Object.assign(done, { child });
}

async function startS3(bucket: string): Promise<{ s3: LocalS3; client: S3Client; settings: S3Settings }> {
  const s3 = await startLocalS3(bucket);
  const settings = s3SettingsFromEnv(loadEnv(s3.env));
  if (!settings) throw new Error("S3 settings expected");
  const client = createS3Client(settings);
  cleanups.push(() => s3.close());
  cleanups.push(() => client.destroy());
  return { s3, client, settings };
}

async function keys(client: S3Client, bucket: string, prefix: string): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (listed.Contents ?? []).map((o) => o.Key ?? "").sort();
}

async function objectBytes(client: S3Client, bucket: string, key: string): Promise<Buffer> {
  const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from((await object.Body?.transformToByteArray()) ?? []);
}

/** Through the app (stored files in the bucket): a clinic whose patient signed, and the sealed PDF. */
async function seed(database: Database, env: Record<string, string>): Promise<string> {
  const ctx = await createTestApp({ database, env });
  try {
    const clinic = await newClinic(ctx.app);
    const { documentId, patient } = await signableDocument(ctx.app, clinic);
    const sent = await ctx.app.inject({
      method: "POST",
      url: `/api/documents/${documentId}/send`,
      payload: {},
      headers: { cookie: clinic.cookie },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const { response } = await signAsPatient(ctx.app, database, tokenOf(sent.json().link as string), patient);
    expect(response.statusCode, response.body).toBe(200);
    await ctx.app.worker.tick();
    await ctx.app.worker.tick({ sweep: true });
    const [document] = await database.db.select().from(contratos).where(eq(contratos.id, documentId));
    expect(document?.signed_pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
    return document?.signed_pdf_sha256 ?? "";
  } finally {
    await ctx.app.close();
  }
}

function expectRestoreSucceeded(result: CliResult): void {
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  expect(result.stdout).toMatch(/trilha de auditoria \(audit:verify\): \d+ clínicas, todas íntegras/);
  expect(result.stdout).toContain("PDFs selados: 1 conferem com o SHA-256 registrado.");
  expect(result.lastLine).toMatch(/^Restauração concluída em [\d.]+ s: tudo confere\.$/);
}

/**
 * The whole round trip on `database` (files in bucket `source`): CLI backup to s3://, a copy of the
 * object put into another server's bucket, CLI restore from there into `target` — whose stored files
 * must end up in that second bucket, not on disk.
 */
async function roundTrip(
  database: Database,
  sourceEnv: Record<string, string>,
  target: { env: Record<string, string>; check: () => Promise<void> },
): Promise<void> {
  const source = await startS3("origem");
  const env = { ...sourceEnv, ...source.s3.env, APP_SECRET };
  const sealed = await seed(database, env);
  // PGlite: the app is gone, so the CLI opens the data dir itself (its lock).
  if (!sourceEnv.DATABASE_URL) await database.close();
  expect(await keys(source.client, "origem", "files/")).toContain(`files/${sealed}`);

  const backup = await cli("backup", ["s3://origem"], env);
  expect(backup.code, backup.stderr).toBe(0);
  expect(backup.lastLine).toMatch(/^s3:\/\/origem\/backups\/consentir-backup-[\dT:.Z-]+\.cbk$/);
  const key = backup.lastLine.slice("s3://origem/".length);
  expect(await keys(source.client, "origem", "backups/")).toEqual([key]);
  // The upload asked for server-side encryption and sent no ACL; nothing was written to disk.
  const started = source.s3.objectCreations().filter((r) => r.url.includes("/backups/"));
  expect(started.length).toBe(1);
  expect(started[0]?.headers["x-amz-server-side-encryption"]).toBe("AES256");
  expect(source.s3.requests.filter((r) => r.headers["x-amz-acl"])).toEqual([]);
  expect(
    existsSync(sourceEnv.DATA_DIR ?? "")
      ? readdirSync(sourceEnv.DATA_DIR ?? "").filter((n) => n.includes("backup-"))
      : [],
  ).toEqual([]);

  // Restore on "another machine": its own bucket (the backup copied there), an empty target.
  const other = await startS3("destino");
  await other.client.send(
    new PutObjectCommand({ Bucket: "destino", Key: key, Body: await objectBytes(source.client, "origem", key) }),
  );
  const targetEnv = { ...target.env, ...other.s3.env, APP_SECRET };
  const restored = await cli("restore", [`s3://destino/${key}`], targetEnv);
  expectRestoreSucceeded(restored);
  expect(restored.stdout).toContain("arquivos em s3://destino/files/");
  expect(await keys(other.client, "destino", "files/")).toContain(`files/${sealed}`);
  const targetDir = target.env.DATA_DIR ?? "";
  expect(readdirSync(targetDir).filter((name) => name.startsWith(".consentir-restore-") || name === "files")).toEqual(
    [],
  );
  await target.check();

  // Addresses that cannot be read are refused in Portuguese, touching nothing.
  const missing = await cli("restore", ["s3://destino/backups/nao-existe.cbk"], {
    ...targetEnv,
    DATA_DIR: dir(`empty-${Date.now()}`),
  });
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("Arquivo não encontrado: s3://destino/backups/nao-existe.cbk");
  const wrongBucket = await cli("restore", [`s3://outro/${key}`], {
    ...targetEnv,
    DATA_DIR: dir(`empty-${Date.now()}`),
  });
  expect(wrongBucket.code).toBe(1);
  expect(wrongBucket.stderr).toContain("O bucket configurado (S3_BUCKET) é destino, não outro.");
  const noS3 = await cli("restore", [`s3://destino/${key}`], { DATA_DIR: dir(`empty-${Date.now()}`), APP_SECRET });
  expect(noS3.code).toBe(1);
  expect(noS3.stderr).toContain("Para usar s3://destino, configure S3_BUCKET=destino");
}

/** A file-backed PGlite under dataDir/pglite, started from the suite's migrated snapshot (no initdb). */
async function pgliteFromSnapshot(dataDir: string): Promise<Database> {
  const pgliteDir = path.join(dataDir, "pglite");
  mkdirSync(pgliteDir, { recursive: true });
  const client = await PGlite.create({
    dataDir: pgliteDir,
    loadDataDir: new Blob([readFileSync(inject("pgliteSnapshot"))]),
    extensions: { pg_trgm, unaccent },
  });
  await client.close();
  return openDatabase({ kind: "pglite", dataDir: pgliteDir });
}

/** A new, empty PostgreSQL database beside the suite's (dropped at the end). */
async function freshPostgres(label: string): Promise<string> {
  if (!adminUrl) throw new Error("needs TEST_DATABASE_URL");
  const name = `consentir_backup_s3_${label}_${process.pid}_${Date.now().toString(36)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  cleanups.push(() => admin(`drop database if exists "${name}" with (force)`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

if (!onPostgres)
  describe("backups in the bucket, embedded PGlite", () => {
    it(
      "npm run backup -- s3://BUCKET, then npm run restore -- s3://BUCKET/KEY into an empty DATA_DIR with its own bucket",
      async () => {
        const source = dir("pglite-source");
        const database = await pgliteFromSnapshot(source);
        cleanups.push(() => database.close().catch(() => undefined));
        const targetDir = dir("pglite-target");
        mkdirSync(targetDir);
        await roundTrip(
          database,
          { DATA_DIR: source },
          {
            env: { DATA_DIR: targetDir },
            check: async () => expect(existsSync(path.join(targetDir, "pglite", "PG_VERSION"))).toBe(true),
          },
        );
      },
      SLOW,
    );
  });

if (!onPostgres)
  describe("daily backup with BACKUP_S3 and retention in the bucket", () => {
    let s3: LocalS3;
    let client: S3Client;
    let settings: S3Settings;
    beforeAll(async () => {
      ({ s3, client, settings } = await startS3("diarios"));
    });

    it(
      "the worker's daily backup goes to backups/ in the bucket and records its run",
      async () => {
        const ctx = await createTestApp({
          env: { ...s3.env, BACKUP_S3: "true", BACKUP_TIME: "00:00", APP_SECRET, DATA_DIR: dir("daily") },
        });
        try {
          await ctx.app.worker.tick({ sweep: true }); // enqueues the day's job
          await ctx.app.worker.tick({ sweep: false }); // runs it
          const written = await keys(client, "diarios", "backups/");
          expect(written).toHaveLength(1);
          const [run] = await ctx.database.db.select().from(backupRuns).orderBy(desc(backupRuns.finished_at)).limit(1);
          expect(run).toMatchObject({ status: "ok", arquivo: written[0]?.slice("backups/".length), removidos: 0 });
          expect(
            existsSync(dir("daily"))
              ? readdirSync(dir("daily")).filter((n) => n.endsWith(".cbk") || n.endsWith(".partial"))
              : [],
          ).toEqual([]);
        } finally {
          await ctx.close();
        }
      },
      SLOW,
    );

    it(
      "keeps the newest of 7 days, 4 weeks and 12 months among the objects, and nothing else under backups/ is touched",
      async () => {
        const now = new Date("2026-11-26T12:00:00Z");
        const names: { name: string; time: Date }[] = [];
        for (let day = 0; day < 420; day += 1) {
          const time = new Date(now.getTime() - day * 86_400_000 - 3 * 3_600_000);
          names.push({ name: backupFileName(time), time });
        }
        const prefix = "poda/";
        for (const { name } of names)
          await client.send(
            new PutObjectCommand({ Bucket: "diarios", Key: `${prefix}${name}`, Body: Buffer.from("x") }),
          );
        await client.send(
          new PutObjectCommand({
            Bucket: "diarios",
            Key: `${prefix}leia-me.txt`,
            Body: Buffer.from("não é um backup"),
          }),
        );
        const destination = s3BackupDestination(settings, prefix);
        try {
          const removed = await pruneBackups(destination, now);
          const expectedGone = new Set(backupsToRemove(names));
          expect(removed).toBe(expectedGone.size);
          const left = (await destination.list()).sort();
          const expectedLeft = [
            ...names.filter((b) => !expectedGone.has(b.name)).map((b) => b.name),
            "leia-me.txt",
          ].sort();
          expect(left).toEqual(expectedLeft);
          // 7 days + older weeks + older months: 7 + 3 + 10 or so, never more than 7 + 4 + 12.
          expect(left.length - 1).toBeGreaterThanOrEqual(12);
          expect(left.length - 1).toBeLessThanOrEqual(23);
        } finally {
          destination.close();
        }
      },
      SLOW,
    );

    it(
      "streams a large backup in several parts, and a backup that fails half-way leaves no object",
      async () => {
        const destination = s3BackupDestination(settings, "grandes/");
        try {
          const sink = await destination.begin("teste.cbk");
          const hash = createHash("sha256");
          for (let i = 0; i < 20; i += 1) {
            const piece = randomBytes(1024 * 1024);
            hash.update(piece);
            await sink.write(piece);
          }
          const parts = () =>
            s3.requests.filter(
              (r) => r.method === "PUT" && /[?&]partNumber=/.test(r.url) && r.url.includes("/grandes/"),
            ).length;
          expect(parts()).toBe(2); // two full 8 MiB parts sent while writing; the rest waits for commit
          expect(await sink.commit()).toBe("s3://diarios/grandes/teste.cbk");
          expect(parts()).toBe(3);
          expect(
            createHash("sha256")
              .update(await objectBytes(client, "diarios", "grandes/teste.cbk"))
              .digest("hex"),
          ).toBe(hash.digest("hex"));

          const root = backupRootKey(
            { APP_SECRET, DATA_DIR: dir("unused") },
            createHash("sha256").update(APP_SECRET).digest(),
          );
          const failed = await writeBackupFile(destination, root, async (sink) => {
            await sink.write(
              "P",
              jsonPayload({ app: "consentir", padding: randomBytes(9 * 1024 * 1024).toString("base64") }),
            );
            throw new Error("falha no meio do backup");
          }).catch((error: Error) => error);
          expect(failed).toBeInstanceOf(Error);
          expect(await destination.list()).toEqual(["teste.cbk"]);
        } finally {
          destination.close();
        }
      },
      SLOW,
    );

    it("refuses inconsistent settings with pt-BR messages", () => {
      const problems = (env: Record<string, string>) => {
        try {
          loadEnv(env);
          return [];
        } catch (error) {
          return error instanceof EnvError ? error.problems : [String(error)];
        }
      };
      expect(problems({ BACKUP_S3: "true" })).toEqual([
        "BACKUP_S3: precisa de S3_BUCKET (e das demais variáveis S3_*) para gravar os backups no bucket",
      ]);
      expect(problems({ ...s3.env, BACKUP_S3: "true", BACKUP_DIR: "/backups" })).toEqual([
        "BACKUP_DIR: escolha um destino para o backup diário: BACKUP_DIR (uma pasta) ou BACKUP_S3=true (o bucket), não os dois",
      ]);
      expect(problems({ S3_ENDPOINT: "http://127.0.0.1:9000" })).toEqual([
        "S3_ENDPOINT: não tem efeito sem S3_BUCKET (o nome do bucket onde os arquivos ficam)",
      ]);
      expect(problems({ S3_BUCKET: "meu-bucket", S3_ACCESS_KEY_ID: "AKIA" })).toEqual([
        "S3_SECRET_ACCESS_KEY: defina S3_ACCESS_KEY_ID e S3_SECRET_ACCESS_KEY juntas (ou nenhuma, para usar o papel da máquina)",
      ]);
      expect(problems({ S3_BUCKET: "Meu_Bucket" })[0]).toMatch(/^S3_BUCKET: nome de bucket inválido/);
      expect(problems({ S3_BUCKET: "meu-bucket", S3_SERVER_SIDE_ENCRYPTION: "talvez" })[0]).toMatch(
        /^S3_SERVER_SIDE_ENCRYPTION: /,
      );
      expect(problems({ ...s3.env, BACKUP_S3: "true" })).toEqual([]);
    });
  });

if (onPostgres)
  describe("backups in the bucket, PostgreSQL", () => {
    it(
      "npm run backup -- s3://BUCKET beside the database, then npm run restore -- s3://BUCKET/KEY into an empty database with its own bucket",
      async () => {
        const url = await freshPostgres("source");
        const database = await openDatabase({ kind: "postgres", url, poolSize: 4 });
        cleanups.push(() => database.close());
        const target = await freshPostgres("target");
        const targetDir = dir("postgres-target");
        mkdirSync(targetDir);
        await roundTrip(
          database,
          { DATA_DIR: dir("postgres-source"), DATABASE_URL: url },
          {
            env: { DATA_DIR: targetDir, DATABASE_URL: target },
            check: async () => {
              const restored = await openDatabase({ kind: "postgres", url: target, poolSize: 2 });
              try {
                const [row] = await restored.db.select({ n: contratos.id }).from(contratos).limit(1);
                expect(row).toBeTruthy();
              } finally {
                await restored.close();
              }
            },
          },
        );
      },
      SLOW,
    );
  });
