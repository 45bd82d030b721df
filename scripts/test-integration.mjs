#!/usr/bin/env node
/**
 * `npm run test:integration`: the integration suite on embedded PGlite and, when
 * TEST_DATABASE_URL is set (CI), on PostgreSQL too — at the same time, as two vitest processes of
 * INTEGRATION_WORKERS forks each (default 2). Each fork takes the next file when it is done with
 * one (no fixed halves: the long files no longer leave one lane running alone at the end). On PGlite
 * each file runs on its own in-memory database; on PostgreSQL each fork has a database of its own
 * (the first fork TEST_DATABASE_URL itself, the others databases made here beside it, same server,
 * same per-database settings, dropped at the end), named to it by TEST_DATABASE_URLS and picked by
 * tests/helpers/postgres-fork-database.ts, so files sharing a database still run one after another.
 * On a 2-core machine the PostgreSQL files spend much of their time waiting on the server: side by
 * side the two processes keep both cores busy. Each line is prefixed with its database; the exit
 * code is the first failure's.
 */
import { spawn } from "node:child_process";
import readline from "node:readline";
import pg from "pg";

const createdDatabases = [];
const vitest = new URL("../node_modules/vitest/vitest.mjs", import.meta.url).pathname;
const extra = process.argv.slice(2);
const workers = Math.max(1, Number(process.env.INTEGRATION_WORKERS ?? 2) || 1);
/**
 * One import of the app per fork, not per test file (decision 039): the pool reads `isolate` from
 * the run, not from a project, so it is said here. Each file still opens its own database.
 */
const shared = [`--maxWorkers=${workers}`, "--no-isolate"];
const runs = [{ label: "pglite", project: "integration", args: shared }];
const postgresUrl = process.env.TEST_DATABASE_URL;
if (postgresUrl) {
  const urls = await createForkDatabases(postgresUrl, workers);
  runs.push({
    label: "postgres",
    project: "integration-postgres",
    args: shared,
    env: { TEST_DATABASE_URLS: urls.join(" ") },
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
 * each fork's migrations would otherwise race to create it.
 */
async function createForkDatabases(url, count) {
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
      const name = `${base}_fork${i}`;
      const quoted = pg.escapeIdentifier(name);
      await admin.query(`drop database if exists ${quoted} with (force)`);
      await admin.query(`create database ${quoted}`);
      createdDatabases.push(name);
      for (const setting of settings) {
        const at = setting.indexOf("=");
        await admin.query(
          `alter database ${quoted} set ${pg.escapeIdentifier(setting.slice(0, at))} = ${pg.escapeLiteral(setting.slice(at + 1))}`,
        );
      }
      urls.push(onDatabase(url, name));
    }
    return urls;
  } finally {
    await admin.end();
  }
}

async function dropForkDatabases() {
  if (createdDatabases.length === 0) return;
  const admin = new pg.Client({ connectionString: onDatabase(postgresUrl, "postgres") });
  try {
    await admin.connect();
    for (const name of createdDatabases.splice(0))
      await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
  } catch (error) {
    console.error(
      `integração: não consegui remover os bancos extras: ${error instanceof Error ? error.message : error}`,
    );
  } finally {
    await admin.end().catch(() => {});
  }
}

const children = new Set();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    void dropForkDatabases().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
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
await dropForkDatabases();
const failed = codes.find((code) => code !== 0);
if (failed !== undefined)
  console.error(`\nintegração: falhou (${runs.map((r, i) => `${r.label}=${codes[i]}`).join(", ")})`);
process.exit(failed ?? 0);
