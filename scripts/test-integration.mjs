#!/usr/bin/env node
/**
 * `npm run test:integration`: the integration suite on embedded PGlite and, when
 * TEST_DATABASE_URL is set (CI), on PostgreSQL too — the two at the same time, as two vitest
 * processes. On a 2-core machine vitest runs one file at a time, and the PostgreSQL files spend
 * much of their time waiting on the server: side by side they use both cores, where one after the
 * other they took the sum of both. Each line is prefixed with its database; the exit code is
 * the first failure's.
 */
import { spawn } from "node:child_process";
import readline from "node:readline";

const vitest = new URL("../node_modules/vitest/vitest.mjs", import.meta.url).pathname;
const extra = process.argv.slice(2);
const runs = [{ label: "pglite", project: "integration" }];
if (process.env.TEST_DATABASE_URL) runs.push({ label: "postgres", project: "integration-postgres" });

function run({ label, project }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, "run", "--project", project, ...extra], { stdio: ["ignore", "pipe", "pipe"], env: process.env });
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
