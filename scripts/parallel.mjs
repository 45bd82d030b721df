#!/usr/bin/env node
/**
 * `node scripts/parallel.mjs script…`: runs the named npm scripts at the same time (the checks of
 * `npm test`: tsc, ESLint and Prettier, side by side, fill both cores; the unit suite stays apart,
 * its PGlite and thread tests time out when they share the cores). Each script's output is printed whole, under its name, when it ends; the
 * exit code is the first failure's, and a summary names each script's code.
 */
import { spawn } from "node:child_process";

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error("uso: node scripts/parallel.mjs <script npm>…");
  process.exit(2);
}
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", "--silent", script], { stdio: ["ignore", "pipe", "pipe"], env: process.env });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n--- ${script} (${seconds} s, código ${code ?? signal})\n${output}`);
      resolve(code ?? 1);
    });
  });
}

const codes = await Promise.all(scripts.map(run));
const failed = codes.findIndex((code) => code !== 0);
if (failed !== -1) {
  console.error(`falhou: ${scripts.map((s, i) => `${s}=${codes[i]}`).join(", ")}`);
  process.exit(codes[failed]);
}
