#!/usr/bin/env node
/**
 * `npm run test:integration`: the integration suite on embedded PGlite and, when
 * TEST_DATABASE_URL is set (CI), on PostgreSQL too — at the same time, as separate vitest
 * processes: PGlite's files split in INTEGRATION_SHARDS halves (default 2; each file still runs
 * alone in its own fork, on its own in-memory database), PostgreSQL's in
 * INTEGRATION_POSTGRES_SHARDS lanes (default 2), each lane's files one after another on its own
 * database: the first lane on TEST_DATABASE_URL itself, the others on databases made here beside it
 * (same server, same per-database settings) and dropped at the end. On a 2-core machine vitest runs
 * one file at a time, and the PostgreSQL files spend much of their time waiting on the server: side
 * by side the lanes keep both cores busy, where one after the other they took the sum of all (the
 * PostgreSQL lane alone was the long pole: 15 min of a 29 min CI under load). Each line is prefixed
 * with its lane; the exit code is the first failure's.
 */
import { spawn } from "node:child_process";
import readline from "node:readline";
import pg from "pg";

const createdDatabases = [];
const vitest = new URL("../node_modules/vitest/vitest.mjs", import.meta.url).pathname;
const extra = process.argv.slice(2);
// Files named on the command line run in one PGlite lane (a shard of one file would be empty).
const shards = extra.length > 0 ? 1 : Math.max(1, Number(process.env.INTEGRATION_SHARDS ?? 2) || 1);
const runs = Array.from({ length: shards }, (_, i) => ({
  label: shards > 1 ? `pglite ${i + 1}/${shards}` : "pglite",
  project: "integration",
  args: shards > 1 ? [`--shard=${i + 1}/${shards}`] : [],
}));
const postgresUrl = process.env.TEST_DATABASE_URL;
const postgresShards = !postgresUrl ? 0 : extra.length > 0 ? 1 : Math.max(1, Number(process.env.INTEGRATION_POSTGRES_SHARDS ?? 2) || 1);
const shardDatabases = postgresUrl ? await createShardDatabases(postgresUrl, postgresShards) : [];
for (const [i, url] of shardDatabases.entries()) {
  runs.push({
    label: postgresShards > 1 ? `postgres ${i + 1}/${postgresShards}` : "postgres",
    project: "integration-postgres",
    args: postgresShards > 1 ? [`--shard=${i + 1}/${postgresShards}`] : [],
    env: { TEST_DATABASE_URL: url },
  });
}

/** The URL of database `name` on the server of `url`. */
function onDatabase(url, name) {
  const next = new URL(url);
  next.pathname = `/${encodeURIComponent(name)}`;
  return next.toString();
}

/**
 * [TEST_DATABASE_URL, then count - 1 new empty databases beside it with its per-database settings
 * (CI's synchronous_commit = off)]. The app's role is made here first: it is one per server, and
 * each lane's migrations would otherwise race to create it.
 */
async function createShardDatabases(url, count) {
  const base = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new pg.Client({ connectionString: onDatabase(url, "postgres") });
  await admin.connect();
  try {
    await admin.query(`do $$ begin
      if not exists (select 1 from pg_roles where rolname = 'consentir_app') then create role consentir_app nologin; end if;
    exception when duplicate_object or unique_violation then null; end $$`);
    const { rows } = await admin.query(
      `select coalesce(s.setconfig, '{}') as setconfig from pg_database d
       left join pg_db_role_setting s on s.setdatabase = d.oid and s.setrole = 0 where d.datname = $1`,
      [base],
    );
    const settings = rows[0]?.setconfig ?? [];
    const urls = [url];
    for (let i = 2; i <= count; i++) {
      const name = `${base}_lane${i}`;
      const quoted = pg.escapeIdentifier(name);
      await admin.query(`drop database if exists ${quoted} with (force)`);
      await admin.query(`create database ${quoted}`);
      createdDatabases.push(name);
      for (const setting of settings) {
        const at = setting.indexOf("=");
        await admin.query(`alter database ${quoted} set ${pg.escapeIdentifier(setting.slice(0, at))} = ${pg.escapeLiteral(setting.slice(at + 1))}`);
      }
      urls.push(onDatabase(url, name));
    }
    return urls;
  } finally {
    await admin.end();
  }
}

async function dropShardDatabases() {
  if (createdDatabases.length === 0) return;
  const admin = new pg.Client({ connectionString: onDatabase(postgresUrl, "postgres") });
  try {
    await admin.connect();
    for (const name of createdDatabases.splice(0)) await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
  } catch (error) {
    console.error(`integração: não consegui remover os bancos extras: ${error instanceof Error ? error.message : error}`);
  } finally {
    await admin.end().catch(() => {});
  }
}

const children = new Set();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    void dropShardDatabases().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  });
}

function run({ label, project, args, env }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, "run", "--project", project, ...args, ...extra], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    children.add(child);
    child.on("close", () => children.delete(child));
    const prefix = runs.length > 1 ? `[${label}] ` : "";
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      readline.createInterface({ input: stream }).on("line", (line) => out.write(`${prefix}${line}\n`));
    }
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const codes = await Promise.all(runs.map(run));
await dropShardDatabases();
const failed = codes.find((code) => code !== 0);
if (failed !== undefined) console.error(`\nintegração: falhou (${runs.map((r, i) => `${r.label}=${codes[i]}`).join(", ")})`);
process.exit(failed ?? 0);
