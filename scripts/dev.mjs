// `npm run dev`: the API under `tsx watch` on port 3001 and the Vite dev server on port 3000
// (which proxies /api to 3001), side by side, with prefixed output. When either one exits, or
// on Ctrl-C, both are stopped.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { constants as osConstants } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const API_PORT = "3001";
const isWindows = process.platform === "win32";

/** Absolute path of a dependency's CLI script, read from its package.json "bin". */
function binOf(pkg, name = pkg) {
  const pkgDir = path.join(root, "node_modules", pkg);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8"));
  } catch {
    console.error(`Dependência "${pkg}" não encontrada. Rode \`npm install\` primeiro.`);
    process.exit(1);
  }
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[name];
  if (!bin) {
    console.error(`O pacote "${pkg}" não declara o executável "${name}".`);
    process.exit(1);
  }
  return path.join(pkgDir, bin);
}

const useColor = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const paint = (code, text) => (useColor ? `\u001b[${code}m${text}\u001b[0m` : text);

const services = [
  {
    label: "api",
    color: "36", // cyan
    args: [binOf("tsx"), "watch", "src/server/main.ts"],
    env: { PORT: API_PORT },
  },
  {
    label: "web",
    color: "35", // magenta
    args: [binOf("vite")],
    env: {},
  },
];

const width = Math.max(...services.map((s) => s.label.length));
let stopping = false;
let firstExitCode = null;

function pipeWithPrefix(stream, out, prefix) {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    pending += chunk;
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? "";
    for (const line of lines) out.write(`${prefix} ${line}\n`);
  });
  stream.on("end", () => {
    if (pending) out.write(`${prefix} ${pending}\n`);
    pending = "";
  });
}

function isRunning(child) {
  return child.exitCode === null && child.signalCode === null;
}

/** Signals the child's whole process group (tsx watch and vite start processes of their own). */
function signal(child, sig) {
  if (!isRunning(child) || child.pid === undefined) return;
  try {
    if (isWindows) child.kill(sig);
    else process.kill(-child.pid, sig);
  } catch {
    try {
      child.kill(sig);
    } catch {
      // already gone
    }
  }
}

for (const service of services) {
  const prefix = paint(service.color, `[${service.label.padEnd(width)}]`);
  const child = spawn(process.execPath, service.args, {
    cwd: root,
    env: { ...process.env, ...(useColor ? { FORCE_COLOR: "1" } : {}), ...service.env },
    stdio: ["ignore", "pipe", "pipe"],
    // Own process group, so stopping it also stops the processes it started.
    detached: !isWindows,
  });
  service.child = child;
  pipeWithPrefix(child.stdout, process.stdout, prefix);
  pipeWithPrefix(child.stderr, process.stderr, prefix);
  child.on("error", (error) => {
    process.stderr.write(`${prefix} não foi possível iniciar: ${error.message}\n`);
    stopAll(1);
  });
  child.on("exit", (code, sig) => {
    const how = sig ? `encerrado pelo sinal ${sig}` : `saiu com código ${code}`;
    if (!stopping) process.stderr.write(`${prefix} ${how}; parando os demais.\n`);
    const exitCode = code ?? (sig && osConstants.signals[sig] ? 128 + osConstants.signals[sig] : 1);
    stopAll(exitCode);
    maybeExit();
  });
}

function stopAll(exitCode) {
  if (firstExitCode === null) firstExitCode = exitCode;
  if (stopping) return;
  stopping = true;
  for (const { child } of services) signal(child, "SIGTERM");
  // Whatever ignores SIGTERM gets SIGKILL after a grace period.
  setTimeout(() => {
    for (const { child } of services) signal(child, "SIGKILL");
  }, 5000).unref();
}

function maybeExit() {
  if (services.every(({ child }) => !isRunning(child))) process.exit(firstExitCode ?? 0);
}

for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    if (stopping) {
      // Second Ctrl-C: do not wait any longer.
      for (const { child } of services) signal(child, "SIGKILL");
      process.exit(130);
    }
    process.stderr.write(`\nParando (${sig})…\n`);
    stopAll(0);
  });
}

process.on("exit", () => {
  for (const { child } of services) if (child) signal(child, "SIGKILL");
});
