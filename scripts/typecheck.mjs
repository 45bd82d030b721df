#!/usr/bin/env node
/**
 * `npm run typecheck`: the whole project (tsconfig.json: client, tests, benches) and the server as
 * `npm run build:server` compiles it (tsconfig.server.json: NodeNext, no DOM) — side by side, one
 * tsc per core; each one's output is printed whole when it ends, and the exit code is the first
 * failure's.
 */
import { spawn } from "node:child_process";

const tsc = new URL("../node_modules/typescript/bin/tsc", import.meta.url).pathname;
const projects = ["tsconfig.json", "tsconfig.server.json"];

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, "-p", project, "--noEmit"], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code, signal) => {
      if (output) process.stdout.write(`[${project}]\n${output}`);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const codes = await Promise.all(projects.map(check));
const failed = codes.find((code) => code !== 0);
if (failed !== undefined) console.error(`typecheck: falhou (${projects.map((p, i) => `${p}=${codes[i]}`).join(", ")})`);
process.exit(failed ?? 0);
