/**
 * "data that outlives the machine": backup and restore (decision 027).
 * Round trips on both databases with the real commands (`npm run backup` / `npm run restore` run as
 * child processes): seed (a clinic with a sealed PDF, the demo clinic, signed anchors) → backup →
 * restore into an empty target → the audit trail byte for byte and verified, every table's rows,
 * the sealed PDF's SHA-256, the demo sign-in. On PGlite the backup is taken while the app runs (its
 * socket), and the backup restores into PostgreSQL; on PostgreSQL it restores into PGlite. Bad
 * files are refused before the target is touched; kill -9 never leaves a file named as complete;
 * the worker's daily backup records its runs. Seeds are small: this file must stay quick in CI.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { desc, eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";
import { projectRoot } from "../../src/db/paths.js";
import { rawRows } from "../../src/db/raw.js";
import { backupRuns, contratos } from "../../src/db/schema.js";
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemoClinic } from "../../src/db/seed/demo-clinic.js";
import { BACKUP_MESSAGES } from "../../src/server/backup/backup-error.js";
import { backupRootKey, readInstanceKey } from "../../src/server/backup/backup-keys.js";
import { jsonPayload } from "../../src/server/backup/record-stream.js";
import { backupRecords, unlockBackup, verifyBackup } from "../../src/server/backup/read-backup-file.js";
import { restoreBackup } from "../../src/server/backup/restore-backup.js";
import { localJournal } from "../../src/server/backup/schema-version.js";
import {
  requestSnapshot,
  serveAppSnapshots,
  SNAPSHOT_SOCKET_PURPOSE,
} from "../../src/server/backup/snapshot-socket.js";
import { dumpPgliteDataDir } from "../../src/server/backup/create-backup.js";
import { listTables } from "../../src/server/backup/table-catalog.js";
import { writeBackupFile } from "../../src/server/backup/write-backup-file.js";
import { scheduleDailyBackup } from "../../src/server/jobs/daily-backup.js";
import { enqueueJob } from "../../src/server/jobs/enqueue-job.js";
import { dateInSaoPaulo, startOfDayInSaoPaulo } from "../../src/shared/dates/sao-paulo.js";
import { createSecretBox } from "../../src/server/lib/secret-box.js";
import { AUDIT_ANCHOR_KEY_PURPOSE } from "../../src/server/services/audit/audit-anchors.js";
import { verifyAllAuditChains } from "../../src/server/services/audit/verify-audit-chain.js";
import { waitFor } from "../helpers/server-process.js";
import { newClinic } from "../helpers/sessions.js";
import { signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp } from "../helpers/test-app.js";
import { startFakeTsaServer } from "../fakes/tsa-server.js";
import { timestampAuditTrails } from "../../src/server/services/audit/trail-timestamps.js";
import { nodeEntryArgs } from "../helpers/node-entry.js";

const onPostgres = process.env.TEST_DB === "postgres";
const adminUrl = process.env.TEST_DATABASE_URL;
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-backup-"));
const SLOW = 180_000;
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

const dir = (name: string) => path.join(scratch, name);

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

/** A new, empty PostgreSQL database beside the suite's (dropped at the end). */
async function freshPostgres(label: string): Promise<string> {
  if (!adminUrl) throw new Error("needs TEST_DATABASE_URL");
  const name = `consentir_backup_${label}_${process.pid}_${Date.now().toString(36)}`;
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

/** A file-backed PGlite under dataDir/pglite, started from the suite's migrated snapshot (no initdb). */
async function pgliteFromSnapshot(dataDir: string): Promise<Database> {
  const pgliteDir = path.join(dataDir, "pglite");
  mkdirSync(pgliteDir, { recursive: true });
  const snapshot = new Blob([readFileSync(inject("pgliteSnapshot"))]);
  const client = await PGlite.create({ dataDir: pgliteDir, loadDataDir: snapshot, extensions: { pg_trgm, unaccent } });
  await client.close();
  return openDatabase({ kind: "pglite", dataDir: pgliteDir });
}

interface Seeded {
  documentId: string;
  sealedSha256: string;
}

/**
 * Through the app (in this process, on `database`): a clinic whose patient signed, the finalize
 * job's sealed PDF, the demo clinic, and the minute sweep's signed anchors.
 */
async function seed(database: Database, env: Record<string, string>): Promise<Seeded> {
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
    await seedDemoClinic(database.db);
    const swept = await ctx.app.worker.tick({ sweep: true });
    expect(swept.anchored).toBeGreaterThan(0);
    // Time-stamp tokens over the chain heads (decision 072), from the local authority.
    const tsa = await startFakeTsaServer();
    try {
      const stamped = await timestampAuditTrails({
        db: database.db,
        storage: ctx.app.services.storage,
        secretBox: ctx.app.services.secretBox,
        env: { ...ctx.env, TSA_URL: tsa.url },
        origin: "http://localhost:3000",
        log: ctx.app.log,
      });
      expect(stamped.stamped).toBeGreaterThan(0);
    } finally {
      await tsa.close();
    }
    const [document] = await database.db.select().from(contratos).where(eq(contratos.id, documentId));
    expect(document?.signed_pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
    return { documentId, sealedSha256: document?.signed_pdf_sha256 ?? "" };
  } finally {
    await ctx.app.close();
  }
}

/** Every table's row count, and the audit trail exactly (each event's hash and link, the heads, the anchors). */
async function fingerprint(database: Database): Promise<Record<string, unknown>> {
  const counts: Record<string, number> = {};
  for (const table of await listTables(database.db)) {
    const [row] = await rawRows<{ n: string | number }>(
      database.db,
      sql.raw(`select count(*) as n from "${table.name}"`),
    );
    counts[table.name] = Number(row?.n ?? 0);
  }
  const chain = await rawRows(
    database.db,
    sql`select tenant_id::text, seq::text, prev_hash, hash, data::text from audit_events order by tenant_id, seq`,
  );
  const heads = await rawRows(
    database.db,
    sql`select tenant_id::text, seq::text, hash from audit_chain_heads order by tenant_id`,
  );
  const anchors = await rawRows(
    database.db,
    sql`select tenant_id::text, seq::text, hash, mac from audit_anchors order by tenant_id, seq`,
  );
  const trailTimestamps = await rawRows(
    database.db,
    sql`select tenant_id::text, seq::text, event_id::text, hash, encode(token_der, 'hex') as token,
                 (extract(epoch from gen_time) * 1000)::bigint::text as gen_time, tsa
          from audit_trail_timestamps order by tenant_id, seq`,
  );
  return { counts, chain, heads, anchors, trailTimestamps };
}

/** On the restored database: the demo owner signs in, and the sealed PDF downloads with its recorded SHA-256. */
async function expectUsable(
  database: Database,
  env: Record<string, string>,
  seeded: Seeded,
  secret: Buffer,
): Promise<void> {
  const reports = await verifyAllAuditChains(database.db, createSecretBox(secret).deriveKey(AUDIT_ANCHOR_KEY_PURPOSE));
  expect(reports.length).toBeGreaterThanOrEqual(2);
  expect(reports.filter((r) => !r.intact)).toEqual([]);
  expect(reports.some((r) => r.anchored_seq > 0)).toBe(true);
  expect(reports.some((r) => r.timestamps.valid > 0)).toBe(true);
  const ctx = await createTestApp({ database, env });
  try {
    const signIn = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-in",
      payload: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const [owner] = await rawRows<{ email: string }>(
      database.db,
      sql`select p.email from contratos c join profiles p on p.id = c.created_by where c.id = ${seeded.documentId}::uuid`,
    );
    expect(owner?.email).toBeTruthy();
    const [document] = await database.db
      .select({ sha: contratos.signed_pdf_sha256 })
      .from(contratos)
      .where(eq(contratos.id, seeded.documentId));
    expect(document?.sha).toBe(seeded.sealedSha256);
    const stored = await ctx.app.services.storage.get(
      (
        await rawRows<{ sha256: string }>(
          database.db,
          sql`select f.sha256 from contratos c join files f on f.id = c.signed_pdf_file_id where c.id = ${seeded.documentId}::uuid`,
        )
      )[0]?.sha256 ?? "",
    );
    expect(stored && createHash("sha256").update(stored).digest("hex")).toBe(seeded.sealedSha256);
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

/** Runs the worker's daily backup on `database` into a folder and checks its backup_runs rows. */
async function expectDailyBackup(database: Database, env: Record<string, string>): Promise<void> {
  const backups = dir(`daily-${Date.now()}`);
  const ctx = await createTestApp({ database, env: { ...env, BACKUP_DIR: backups, BACKUP_TIME: "00:00" } });
  try {
    // Before BACKUP_TIME (23:59 here, at noon in São Paulo), nothing is enqueued.
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const jobContext = {
      db: database.db,
      storage: ctx.app.services.storage,
      secretBox: ctx.app.services.secretBox,
      origin: "http://localhost",
      log: quiet,
    };
    const noon = new Date(startOfDayInSaoPaulo(dateInSaoPaulo(new Date())).getTime() + 12 * 3_600_000);
    expect(await scheduleDailyBackup({ ...jobContext, env: { ...ctx.env, BACKUP_TIME: "23:59" } }, noon)).toBe(false);
    expect(await scheduleDailyBackup({ ...jobContext, env: { ...ctx.env, BACKUP_DIR: undefined } }, noon)).toBe(false);
    await ctx.app.worker.tick({ sweep: true }); // enqueues the day's job (BACKUP_TIME 00:00 has passed)
    await ctx.app.worker.tick({ sweep: false }); // runs it
    const written = readdirSync(backups).filter((name) => name.endsWith(".cbk"));
    expect(written).toHaveLength(1);
    const [run] = await database.db.select().from(backupRuns).orderBy(desc(backupRuns.finished_at)).limit(1);
    expect(run).toMatchObject({ status: "ok", arquivo: written[0], removidos: 0 });
    const instanceKey = readInstanceKey({ APP_SECRET: env.APP_SECRET, DATA_DIR: env.DATA_DIR ?? "" });
    const { manifest } = await verifyBackup(
      await unlockBackup(
        path.join(backups, written[0] ?? ""),
        { DATA_DIR: env.DATA_DIR ?? "", APP_SECRET: env.APP_SECRET },
        instanceKey,
      ),
    );
    expect(manifest.tables.find((t) => t.name === "audit_events")?.rows).toBeGreaterThan(0);
    await ctx.app.worker.tick({ sweep: true }); // the same day: nothing more
    expect(readdirSync(backups).filter((name) => name.endsWith(".cbk"))).toHaveLength(1);
  } finally {
    await ctx.app.close();
  }
  // A BACKUP_DIR that cannot be written (a file stands there): the failure is a row the owner's notices read.
  const blocked = dir(`blocked-${Date.now()}`);
  writeFileSync(blocked, "not a folder");
  const failing = await createTestApp({ database, env: { ...env, BACKUP_DIR: blocked, BACKUP_TIME: "00:00" } });
  try {
    await enqueueJob(database.db, {
      kind: "backup.daily",
      payload: { dia: "2026-01-02" },
      dedupeKey: "backup.daily:2026-01-02",
      maxAttempts: 3,
    });
    await failing.app.worker.tick({ sweep: false });
    const [run] = await database.db.select().from(backupRuns).orderBy(desc(backupRuns.finished_at)).limit(1);
    expect(run?.status).toBe("failed");
    expect(run).toMatchObject({ dia: "2026-01-02", arquivo: null });
    expect(run?.mensagem).toMatch(/^O backup diário de 2026-01-02 falhou: /);
    // …and an Aviso for the clinic's owner (decision 028).
    const notices = await rawRows<{ kind: string; title: string }>(
      database.db,
      sql`select kind, title from system_notices where kind = 'backup.failed'`,
    );
    expect(notices.length).toBeGreaterThan(0);
    expect(notices[0]).toMatchObject({ kind: "backup.failed", title: "Backup de 02/01/2026 não concluído" });
    const [job] = await rawRows<{ status: string; last_error: string | null }>(
      database.db,
      sql`select status, last_error from jobs where dedupe_key = 'backup.daily:2026-01-02'`,
    );
    expect(job?.status).toBe("pending"); // retried later with back-off
    expect(job?.last_error).toBeTruthy();
    await database.db.execute(sql`delete from jobs where dedupe_key = 'backup.daily:2026-01-02'`);
  } finally {
    await failing.app.close();
  }
}

// Each project runs its own half (no skipped tests): PGlite here, PostgreSQL in integration-postgres.
if (!onPostgres)
  describe("backup and restore on embedded PGlite", () => {
    const source = dir("pglite-source");
    const sourceEnv = { DATA_DIR: source };
    let seeded: Seeded;
    let backupFile: string;
    let before: Record<string, unknown>;
    let secret: Buffer;
    let database: Database;

    beforeAll(async () => {
      database = await pgliteFromSnapshot(source);
      cleanups.push(() => database.close());
      // No APP_SECRET: the app makes DATA_DIR/secret.key, which a restore elsewhere needs a copy of.
      seeded = await seed(database, sourceEnv);
      await expectDailyBackup(database, sourceEnv);
      before = await fingerprint(database);
      secret = readInstanceKey(sourceEnv) ?? Buffer.alloc(0);
      expect(secret.length).toBe(32);
    }, SLOW);

    it(
      "backs up while the app runs: the app hands over a copy of its data dir through its socket, to the key holder only",
      async () => {
        // This process holds the data dir (its lock) like `npm start` does, and serves the socket as main.ts does.
        const ctx = await createTestApp({ database, env: sourceEnv });
        const quiet = { info: () => undefined, warn: () => undefined };
        const socket = await serveAppSnapshots(
          source,
          ctx.app.services.secretBox,
          () => dumpPgliteDataDir(database),
          quiet,
        );
        try {
          const outside = createSecretBox(Buffer.alloc(32, 7)).deriveKey(SNAPSHOT_SOCKET_PURPOSE);
          await expect(requestSnapshot(source, outside)).rejects.toThrow(/recusou o pedido de backup/);
          const result = await cli("backup", [dir("backups")], sourceEnv);
          expect(result.code, result.stderr).toBe(0);
          expect(result.stdout).toContain("cópia tirada pelo app em execução");
          backupFile = result.lastLine;
          expect(path.dirname(backupFile)).toBe(dir("backups"));
          expect(path.basename(backupFile)).toMatch(/^consentir-backup-.*\.cbk$/);
          expect((await ctx.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
        } finally {
          await socket.close();
          await ctx.app.close();
          await database.close();
        }
        // Nothing of the instance key is inside, not even decrypted.
        const plain = [];
        for await (const record of backupRecords(await unlockBackup(backupFile, sourceEnv, secret)))
          plain.push(record.payload);
        const everything = Buffer.concat(plain);
        expect(everything.includes(secret)).toBe(false);
        expect(everything.includes(Buffer.from(secret.toString("base64")))).toBe(false);
        expect(readFileSync(backupFile).includes(Buffer.from(secret.toString("base64")))).toBe(false);
      },
      SLOW,
    );

    it(
      "restores into an empty DATA_DIR: same rows, audit chain byte for byte and verified, sealed PDF, demo sign-in",
      async () => {
        const target = dir("pglite-restored");
        mkdirSync(target);
        copyFileSync(path.join(source, "secret.key"), path.join(target, "secret.key"));
        const result = await cli("restore", [backupFile], { DATA_DIR: target });
        expectRestoreSucceeded(result);
        const restored = await openDatabase({ kind: "pglite", dataDir: path.join(target, "pglite") });
        try {
          expect(await fingerprint(restored)).toEqual(before);
          await expectUsable(restored, { DATA_DIR: target }, seeded, secret);
        } finally {
          await restored.close();
        }
        // A second restore into the now non-empty target is refused without --force.
        await expect(
          restoreBackup({ file: backupFile, env: { DATA_DIR: target }, target: { kind: "pglite", dataDir: target } }),
        ).rejects.toThrow(/O destino não está vazio/);
      },
      SLOW,
    );

    it(
      "refuses a truncated, altered, other-key or newer-version backup with a pt-BR message, before touching the target",
      async () => {
        const original = readFileSync(backupFile);
        const variants: [string, Buffer, Record<string, string>, string][] = [
          ["truncated", original.subarray(0, original.length - 200), {}, BACKUP_MESSAGES.truncated],
          ["cut at the header", original.subarray(0, 40), {}, BACKUP_MESSAGES.notABackup],
          ["altered", flipped(original, Math.floor(original.length / 2)), {}, BACKUP_MESSAGES.tampered],
          [
            "other key",
            original,
            { APP_SECRET: "outra-instalacao-com-outro-segredo-0123456789" },
            BACKUP_MESSAGES.otherKey("a APP_SECRET"),
          ],
        ];
        for (const [label, bytes, extraEnv, message] of variants) {
          const file = dir(`bad-${label.replace(/ /g, "-")}.cbk`);
          writeFileSync(file, bytes);
          const target = dir(`target-${label.replace(/ /g, "-")}`);
          mkdirSync(target);
          copyFileSync(path.join(source, "secret.key"), path.join(target, "secret.key"));
          const env = { DATA_DIR: target, ...extraEnv };
          await expect(
            restoreBackup({ file, env, target: { kind: "pglite", dataDir: target } }),
            label,
          ).rejects.toThrow(message);
          expect(readdirSync(target), label).toEqual(["secret.key"]);
        }
        // A backup whose database ran a migration this code does not have (made with the right key).
        const newer = dir("newer");
        const root = backupRootKey(sourceEnv, secret);
        const journal = localJournal();
        const schema = {
          migrations: journal.length + 1,
          last_tag: "0099_futuro",
          last_when: Math.max(...journal.map((e) => e.when)) + 1,
        };
        // (A backup that fails half-way leaves nothing behind, not even its temporary file.)
        const failed = await writeBackupFile(newer, root, async (sink) => {
          await sink.write("P", jsonPayload({ app: "consentir" }));
          throw new Error("falha no meio do backup");
        }).catch((error: Error) => error);
        expect(failed).toBeInstanceOf(Error);
        expect(readdirSync(newer)).toEqual([]);
        const file = await craftBackup(newer, root, schema);
        const target = dir("target-newer");
        mkdirSync(target);
        copyFileSync(path.join(source, "secret.key"), path.join(target, "secret.key"));
        const refused = await cli("restore", [file], { DATA_DIR: target });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(BACKUP_MESSAGES.newerSchema("0099_futuro"));
        expect(readdirSync(target)).toEqual(["secret.key"]);
      },
      SLOW,
    );

    it(
      "kill -9 during a backup leaves no file named as a complete backup",
      async () => {
        const folder = dir("killed");
        const running = cli("backup", [folder], sourceEnv);
        const partial = await waitFor(
          "o arquivo temporário do backup",
          () => (existsSync(folder) ? readdirSync(folder).find((name) => name.endsWith(".partial")) : undefined),
          60_000,
          5,
        );
        running.child.kill("SIGKILL");
        const result = await running;
        expect(result.code).toBeNull();
        expect(readdirSync(folder).filter((name) => name.endsWith(".cbk"))).toEqual([]);
        expect(statSync(path.join(folder, partial)).isFile()).toBe(true);
      },
      SLOW,
    );

    // CI sets TEST_DATABASE_URL for both projects: the move up to PostgreSQL runs there.
    if (adminUrl)
      it(
        "a PGlite backup restores into PostgreSQL (a clinic moving up)",
        async () => {
          const url = await freshPostgres("from_pglite");
          const files = dir("postgres-from-pglite");
          mkdirSync(files);
          copyFileSync(path.join(source, "secret.key"), path.join(files, "secret.key"));
          const result = await cli("restore", [backupFile], { DATABASE_URL: url, DATA_DIR: files });
          expectRestoreSucceeded(result);
          const restored = await openDatabase({ kind: "postgres", url, poolSize: 2 });
          try {
            expect(await fingerprint(restored)).toEqual(before);
            await expectUsable(restored, { DATA_DIR: files }, seeded, secret);
          } finally {
            await restored.close();
          }
        },
        SLOW,
      );
  });

if (onPostgres)
  describe("backup and restore on PostgreSQL", () => {
    const APP_SECRET = "segredo-de-teste-do-backup-0123456789-abcdef";
    const sourceFiles = dir("postgres-source");
    const env = { DATA_DIR: sourceFiles, APP_SECRET };
    const secret = createHash("sha256").update(APP_SECRET).digest();
    let url: string;
    let database: Database;
    let seeded: Seeded;
    let backupFile: string;
    let before: Record<string, unknown>;

    beforeAll(async () => {
      url = await freshPostgres("source");
      database = await openDatabase({ kind: "postgres", url, poolSize: 4 });
      cleanups.push(() => database.close());
      seeded = await seed(database, env);
      await expectDailyBackup(database, env);
    }, SLOW);

    it(
      "backs up while the app works on the same database",
      async () => {
        const ctx = await createTestApp({ database, env });
        try {
          const result = await cli("backup", [dir("backups")], { ...env, DATABASE_URL: url });
          expect(result.code, result.stderr).toBe(0);
          backupFile = result.lastLine;
          expect(existsSync(backupFile)).toBe(true);
          expect((await ctx.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
        } finally {
          await ctx.app.close();
        }
        before = await fingerprint(database);
      },
      SLOW,
    );

    it(
      "restores into an empty database: same rows, audit chain byte for byte, sealed PDF, demo sign-in; a non-empty one needs --force",
      async () => {
        const target = await freshPostgres("restored");
        const files = dir("postgres-restored");
        const result = await cli("restore", [backupFile], { DATABASE_URL: target, DATA_DIR: files, APP_SECRET });
        expectRestoreSucceeded(result);
        const restored = await openDatabase({ kind: "postgres", url: target, poolSize: 2 });
        try {
          expect(await fingerprint(restored)).toEqual(before);
          await expectUsable(restored, { DATA_DIR: files, APP_SECRET }, seeded, secret);
          const again = await cli("restore", [backupFile], { DATABASE_URL: target, DATA_DIR: files, APP_SECRET });
          expect(again.code).toBe(1);
          expect(again.stderr).toMatch(/O destino não está vazio \(o banco tem \d+ tabelas/);
          const forced = await cli("restore", [backupFile, "--force"], {
            DATABASE_URL: target,
            DATA_DIR: files,
            APP_SECRET,
          });
          expectRestoreSucceeded(forced);
          expect(await fingerprint(restored)).toEqual(before);
        } finally {
          await restored.close();
        }
      },
      SLOW,
    );

    it(
      "refuses an altered backup before touching the target database",
      async () => {
        const original = readFileSync(backupFile);
        const file = dir("altered.cbk");
        writeFileSync(file, flipped(original, original.length - 30));
        const target = await freshPostgres("untouched");
        await expect(
          restoreBackup({
            file,
            env: { DATA_DIR: dir("untouched"), APP_SECRET },
            target: { kind: "postgres", url: target, dataDir: dir("untouched") },
          }),
        ).rejects.toThrow(BACKUP_MESSAGES.tampered);
        const client = new pg.Client({ connectionString: target });
        await client.connect();
        try {
          const { rows } = await client.query(
            "select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')",
          );
          expect(rows[0]?.n).toBe(0);
        } finally {
          await client.end();
        }
      },
      SLOW,
    );

    it(
      "a PostgreSQL backup restores into embedded PGlite",
      async () => {
        const target = dir("pglite-from-postgres");
        const result = await cli("restore", [backupFile], { DATA_DIR: target, APP_SECRET });
        expectRestoreSucceeded(result);
        const restored = await openDatabase({ kind: "pglite", dataDir: path.join(target, "pglite") });
        try {
          expect(await fingerprint(restored)).toEqual(before);
          await expectUsable(restored, { DATA_DIR: target, APP_SECRET }, seeded, secret);
        } finally {
          await restored.close();
        }
      },
      SLOW,
    );
  });

/** A valid backup (right key, good chunks) whose preamble names a schema newer than this code's. */
async function craftBackup(
  folder: string,
  root: ReturnType<typeof backupRootKey>,
  schema: { migrations: number; last_tag: string; last_when: number },
): Promise<string> {
  const preamble = jsonPayload({
    app: "consentir",
    format: 1,
    created_at: new Date().toISOString(),
    source: "pglite",
    schema,
    instance_key_id: null,
  });
  const written = await writeBackupFile(folder, root, async (sink) => {
    await sink.write("P", preamble);
    const manifest = {
      format: 1,
      created_at: new Date().toISOString(),
      finished_at: new Date().toISOString(),
      schema,
      preamble_sha256: createHash("sha256").update(preamble).digest("hex"),
      tables: [],
      files: { count: 0, bytes: 0, sha256: createHash("sha256").digest("hex"), missing: [] },
    };
    await sink.write("M", jsonPayload(manifest));
    return manifest;
  });
  return written.path;
}

/** The same bytes with one of them changed. */
function flipped(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = (copy[at] ?? 0) ^ 0xff;
  return copy;
}
