// `npm start`: compiles the application when needed (first run, or source changed since the
// last build), then runs the compiled server in the foreground. `npm run worker` is
// `node scripts/start.mjs worker`: the same build, then the compiled worker (no HTTP). Through
// tsx an idle worker spent ~4 ms of CPU a second more, and needed the dev dependencies (decision 075).
// `node scripts/start.mjs build` (npm's `prepare`, so `npm install` and `npm ci` run it) only builds,
// when needed: a fresh clone's first `npm start` then serves at once (decision 084).
//
// Plain Node ESM on purpose: it must run before anything is compiled.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { constants as osConstants } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const worker = process.argv[2] === "worker";
const buildOnly = process.argv[2] === "build";
const serverEntry = path.join(root, "dist", "server", "server", worker ? "worker-main.js" : "main.js");
/** What is not started when the build fails. */
const what = worker ? "o processo de tarefas" : "o servidor";
const clientIndex = path.join(root, "dist", "client", "index.html");
const stampFile = path.join(root, "dist", ".build-stamp");

/** Inputs of the build besides everything under src/. */
function topLevelInputs() {
  let names = [];
  try {
    names = readdirSync(root);
  } catch {
    // unreadable root: the existence checks below will force a build anyway
  }
  const extra = names.filter((name) => /^tsconfig.*\.json$/.test(name));
  return ["index.html", "vite.config.ts", "package.json", ...extra].map((name) => path.join(root, name));
}

/** Latest modification time (ms) of any file under dir, skipping symlinks. */
function newestUnder(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      newest = Math.max(newest, newestUnder(full));
    } else if (entry.isFile()) {
      newest = Math.max(newest, mtimeOf(full));
    }
  }
  return newest;
}

function mtimeOf(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Why a build is needed, or null when dist is up to date. */
function buildReason() {
  if (!existsSync(serverEntry)) return `${path.relative(root, serverEntry)} não existe`;
  if (!existsSync(clientIndex)) return `${path.relative(root, clientIndex)} não existe`;
  if (!existsSync(stampFile)) return "nenhuma compilação registrada";
  const stamp = mtimeOf(stampFile);
  const newest = Math.max(newestUnder(path.join(root, "src")), ...topLevelInputs().map(mtimeOf));
  if (newest > stamp) return "código alterado desde a última compilação";
  return null;
}

/** Runs the npm that launched us (npm start) or the one on PATH. */
function npmCommand(args) {
  const npmCli = process.env.npm_execpath;
  if (npmCli && /\.[cm]?js$/.test(npmCli) && existsSync(npmCli)) {
    return { command: process.execPath, args: [npmCli, ...args], shell: false };
  }
  return { command: process.platform === "win32" ? "npm.cmd" : "npm", args, shell: process.platform === "win32" };
}

const forwardedSignals = ["SIGINT", "SIGTERM", "SIGHUP"];
const canUseGroups = process.platform !== "win32";

/**
 * Runs a child with inherited output, forwarding termination signals to it, and resolves with
 * { code, signal } once it exits.
 *
 * With `ownGroup`, the child leads a process group of its own and signals go to the whole
 * group: `npm run build` runs `sh -c "npm run … && npm run …"`, and a signal that reached only
 * npm or sh would leave vite/tsc running as orphans that keep writing to dist/.
 * Without it (the server), the child stays in our process group, as a plain foreground process.
 */
function runChild(command, args, { ownGroup = false, ...options } = {}) {
  return new Promise((resolve, reject) => {
    const grouped = ownGroup && canUseGroups;
    const child = spawn(command, args, {
      cwd: root,
      stdio: grouped ? ["ignore", "inherit", "inherit"] : "inherit",
      detached: grouped,
      ...options,
    });
    const running = () => child.exitCode === null && child.signalCode === null;
    const send = (signal) => {
      if (!running()) return;
      try {
        if (grouped) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        // already gone
      }
    };
    const onExit = () => send("SIGTERM");
    for (const signal of forwardedSignals) process.on(signal, send);
    process.on("exit", onExit);
    const detach = () => {
      for (const signal of forwardedSignals) process.off(signal, send);
      process.off("exit", onExit);
    };
    child.once("error", (error) => {
      detach();
      reject(error);
    });
    child.once("exit", (code, signal) => {
      detach();
      // Whatever the group leader left behind goes with it.
      if (grouped) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          // group already empty
        }
      }
      resolve({ code, signal });
    });
  });
}

function exitCodeOf({ code, signal }) {
  if (code !== null) return code;
  const number = signal ? osConstants.signals[signal] : undefined;
  return number ? 128 + number : 1;
}

/** The signal that asked us to stop, if any (so a build killed by Ctrl-C is not called a failure). */
let interruptedBy = null;
for (const signal of forwardedSignals) {
  process.on(signal, () => {
    interruptedBy ??= signal;
  });
}

async function main() {
  const reason = buildReason();
  if (reason) {
    console.log(`Compilando a aplicação (primeira execução ou código alterado)… [${reason}]`);
    const startedAt = Date.now();
    const npm = npmCommand(["run", "build"]);
    let result;
    try {
      result = await runChild(npm.command, npm.args, { shell: npm.shell, ownGroup: true });
    } catch (error) {
      console.error(`Não foi possível executar o npm para compilar: ${error.message}`);
      process.exit(1);
    }
    if (result.code !== 0) {
      const code = exitCodeOf(result);
      if (result.signal || interruptedBy) {
        console.error(`\nCompilação interrompida (${interruptedBy ?? result.signal}); ${what} não foi iniciado.`);
      } else {
        console.error(
          `\nA compilação falhou (npm run build saiu com código ${result.code}); ${what} não foi iniciado.\n` +
            `Corrija o erro acima e rode \`${worker ? "npm run worker" : "npm start"}\` de novo (ou \`npm run build\` para ver só a compilação).`,
        );
      }
      process.exit(interruptedBy ? 128 + (osConstants.signals[interruptedBy] ?? 0) : code === 0 ? 1 : code);
    }
    // The stamp carries the time the build started, so a file saved during the build is
    // still newer than it and triggers the next build.
    mkdirSync(path.dirname(stampFile), { recursive: true });
    writeFileSync(stampFile, `${new Date(startedAt).toISOString()}\n`);
    const when = new Date(startedAt);
    utimesSync(stampFile, when, when);
    console.log(`Compilação concluída em ${((Date.now() - startedAt) / 1000).toFixed(1)} s.`);
  }

  if (interruptedBy) process.exit(128 + (osConstants.signals[interruptedBy] ?? 0));
  if (buildOnly) {
    if (!reason) console.log("Compilação em dia; nada a fazer.");
    return;
  }

  let result;
  try {
    result = await runChild(process.execPath, [serverEntry]);
  } catch (error) {
    console.error(`Não foi possível iniciar ${what}: ${error.message}`);
    process.exit(1);
  }
  process.exit(exitCodeOf(result));
}

await main();
