#!/usr/bin/env node
/**
 * `npm run test:integration`: the integration suite on embedded PGlite and, when
 * TEST_DATABASE_URL is set (CI), on PostgreSQL too — at the same time, as separate vitest
 * processes: PGlite's files split in INTEGRATION_SHARDS halves (default 2; each file still runs
 * alone in its own fork, on its own in-memory database), PostgreSQL's one after another (one shared
 * database). On a 2-core machine vitest runs one file at a time, and the PostgreSQL files spend
 * much of their time waiting on the server: side by side the lanes keep both cores busy, where one
 * after the other they took the sum of all. Each line is prefixed with its lane; the exit code
 * is the first failure's.
 */
import { spawn } from "node:child_process";
import readline from "node:readline";

const vitest = new URL("../node_modules/vitest/vitest.mjs", import.meta.url).pathname;
const extra = process.argv.slice(2);
// Files named on the command line run in one PGlite lane (a shard of one file would be empty).
const shards = extra.length > 0 ? 1 : Math.max(1, Number(process.env.INTEGRATION_SHARDS ?? 2) || 1);
const runs = Array.from({ length: shards }, (_, i) => ({
  label: shards > 1 ? `pglite ${i + 1}/${shards}` : "pglite",
  project: "integration",
  args: shards > 1 ? [`--shard=${i + 1}/${shards}`] : [],
}));
if (process.env.TEST_DATABASE_URL) runs.push({ label: "postgres", project: "integration-postgres", args: [] });

function run({ label, project, args }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, "run", "--project", project, ...args, ...extra], { stdio: ["ignore", "pipe", "pipe"], env: process.env });
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
const failed = codes.find((code) => code !== 0);
if (failed !== undefined) console.error(`\nintegração: falhou (${runs.map((r, i) => `${r.label}=${codes[i]}`).join(", ")})`);
process.exit(failed ?? 0);
