/**
 * `boot`: time from spawning the compiled server (`node dist/server/server/main.js`) to the
 * first `GET /api/health` that answers 200, polling every 25 ms.
 *
 *  - new data dir (3 runs, each on its own empty temp DATA_DIR: PGlite initdb + migrations);
 *  - existing data dir (5 runs on the first run's DATA_DIR, after that server was stopped
 *    with SIGTERM and exited) — this is the headline median_ms / p95_ms;
 *  - with DATABASE_URL set in the environment, also 5 runs against that PostgreSQL
 *    (postgres_median_ms; note the server applies pending migrations to it, as it always does);
 *  - a fresh clone of HEAD (node_modules hard-linked, as `npm install` would leave it): the build
 *    `npm install` runs (its `prepare`, fresh_clone_install_build_ms), then the first `npm start`
 *    to the sign-in page (fresh_clone_first_start_ms, target ≤ 15 s; decision 084).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchCase, BenchResult } from "../run.js";
import { round, summarize } from "../stats.js";
import { freePort } from "../../tests/helpers/server-process.js";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const serverEntry = path.join(projectRoot, "dist", "server", "server", "main.js");

const NEW_DIR_RUNS = 3;
const EXISTING_DIR_RUNS = 5;
const POSTGRES_RUNS = 5;
const POLL_INTERVAL_MS = 25;
const BOOT_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

const log = (message: string) => process.stderr.write(`  [boot] ${message}\n`);

// Everything we start or create, so that an interrupted run leaves nothing behind.
const liveChildren = new Set<ChildProcess>();
const tempDirs = new Set<string>();

function cleanupSync(): void {
  for (const child of liveChildren) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  liveChildren.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

function makeTempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "consentir-bench-boot-"));
  tempDirs.add(dir);
  return dir;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestUnder(full));
    else if (entry.isFile()) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds with `npm run build` when the server is not compiled; warns when the build looks stale. */
function ensureBuilt(): void {
  if (!existsSync(serverEntry)) {
    log("dist/server ausente: rodando `npm run build`…");
    const npmCli = process.env.npm_execpath;
    const [command, args]: [string, string[]] =
      npmCli && /\.[cm]?js$/.test(npmCli) ? [process.execPath, [npmCli, "run", "build"]] : ["npm", ["run", "build"]];
    // Build output goes to stderr: stdout is reserved for the result line.
    const result = spawnSync(command, args, { cwd: projectRoot, stdio: ["ignore", 2, 2] });
    if (result.error) throw result.error;
    if (result.status !== 0) throw new Error(`npm run build falhou (código ${result.status ?? result.signal})`);
    if (!existsSync(serverEntry)) throw new Error(`${serverEntry} não existe após o build`);
    return;
  }
  const stamp = path.join(projectRoot, "dist", ".build-stamp");
  const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : statSync(serverEntry).mtimeMs;
  if (newestUnder(path.join(projectRoot, "src")) > builtAt) {
    log("aviso: há arquivos em src/ mais novos que dist/ — medindo o build existente (rode `npm run build`).");
  }
}

interface Target {
  dataDir: string;
  databaseUrl?: string;
  /** Another checkout to start in (the fresh clone), with its command and the page to wait for. */
  cwd?: string;
  args?: string[];
  path?: string;
}

/** A clone of HEAD with node_modules hard-linked, built as `npm install` builds it (its `prepare`). */
function freshClone(): { dir: string; buildMs: number } {
  const dir = path.join(makeTempDir(), "clone");
  const sh = (command: string, args: string[], cwd = projectRoot) => {
    const result = spawnSync(command, args, { cwd, stdio: ["ignore", 2, 2] });
    if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} falhou (${result.status ?? result.signal})`);
  };
  sh("git", ["clone", "--quiet", projectRoot, dir]);
  sh("cp", ["-al", path.join(projectRoot, "node_modules"), path.join(dir, "node_modules")]);
  const started = performance.now();
  sh(process.execPath, [path.join(dir, "scripts", "start.mjs"), "build"], dir);
  return { dir, buildMs: performance.now() - started };
}

interface BootRun {
  bootMs: number;
  stopMs: number;
}

/** Starts the server, times it to a healthy /api/health, then stops it with SIGTERM. */
async function bootOnce(target: Target): Promise<BootRun> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: target.dataDir,
    LOG_LEVEL: "warn",
  };
  delete env.DATABASE_URL;
  if (target.databaseUrl) env.DATABASE_URL = target.databaseUrl;

  let output = "";
  const started = performance.now();
  const child = spawn(process.execPath, target.args ?? [serverEntry], {
    cwd: target.cwd ?? projectRoot,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  liveChildren.add(child);
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-8000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      liveChildren.delete(child);
      resolve({ code, signal });
    });
  });
  let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void exited.then((info) => (exitInfo = info));

  try {
    let bootMs: number | undefined;
    const url = `http://127.0.0.1:${port}${target.path ?? "/api/health"}`;
    while (bootMs === undefined) {
      if (exitInfo) {
        throw new Error(
          `o servidor saiu antes de responder (código ${exitInfo.code ?? exitInfo.signal}):\n${output.trim()}`,
        );
      }
      if (performance.now() - started > BOOT_TIMEOUT_MS) {
        throw new Error(`/api/health não respondeu 200 em ${BOOT_TIMEOUT_MS / 1000} s:\n${output.trim()}`);
      }
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
        await response.arrayBuffer();
        if (response.status === 200) bootMs = performance.now() - started;
      } catch {
        // not listening yet
      }
      if (bootMs === undefined) await sleep(POLL_INTERVAL_MS);
    }

    const stopStarted = performance.now();
    child.kill("SIGTERM");
    const stopped = await Promise.race([exited, sleep(STOP_TIMEOUT_MS).then(() => undefined)]);
    if (!stopped) throw new Error(`o servidor não encerrou em ${STOP_TIMEOUT_MS / 1000} s após SIGTERM`);
    if (stopped.code !== 0) {
      throw new Error(`o servidor saiu com código ${stopped.code ?? stopped.signal} após SIGTERM:\n${output.trim()}`);
    }
    return { bootMs, stopMs: performance.now() - stopStarted };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
  }
}

function figures(prefix: string, samples: number[]): Record<string, number> {
  const summary = summarize(samples);
  return { [`${prefix}_median_ms`]: round(summary.median), [`${prefix}_p95_ms`]: round(summary.p95) };
}

async function run(): Promise<BenchResult> {
  const onSignal = (signal: NodeJS.Signals) => {
    cleanupSync();
    process.exit(128 + (os.constants.signals[signal] ?? 1));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("exit", cleanupSync);
  try {
    ensureBuilt();

    const newDir: number[] = [];
    let firstDataDir: string | undefined;
    for (let i = 1; i <= NEW_DIR_RUNS; i++) {
      const dataDir = makeTempDir();
      firstDataDir ??= dataDir;
      const { bootMs } = await bootOnce({ dataDir });
      newDir.push(bootMs);
      log(`diretório novo ${i}/${NEW_DIR_RUNS}: ${round(bootMs)} ms`);
      if (dataDir !== firstDataDir) {
        rmSync(dataDir, { recursive: true, force: true });
        tempDirs.delete(dataDir);
      }
    }

    const existingDir: number[] = [];
    const stopTimes: number[] = [];
    for (let i = 1; i <= EXISTING_DIR_RUNS; i++) {
      const { bootMs, stopMs } = await bootOnce({ dataDir: firstDataDir! });
      existingDir.push(bootMs);
      stopTimes.push(stopMs);
      log(`diretório existente ${i}/${EXISTING_DIR_RUNS}: ${round(bootMs)} ms`);
    }

    const postgres: number[] = [];
    const databaseUrl = process.env.DATABASE_URL;
    if (databaseUrl) {
      log("DATABASE_URL definida: medindo também contra o PostgreSQL (as migrações pendentes serão aplicadas).");
      const dataDir = makeTempDir();
      for (let i = 1; i <= POSTGRES_RUNS; i++) {
        const { bootMs } = await bootOnce({ dataDir, databaseUrl });
        postgres.push(bootMs);
        log(`postgres ${i}/${POSTGRES_RUNS}: ${round(bootMs)} ms`);
      }
    }

    const fresh = freshClone();
    log(`clone novo: build do npm install ${round(fresh.buildMs)} ms…`);
    const { bootMs: firstStartMs } = await bootOnce({
      dataDir: path.join(fresh.dir, "data"),
      cwd: fresh.dir,
      args: [path.join(fresh.dir, "scripts", "start.mjs")],
      path: "/entrar",
    });
    log(`clone novo: primeiro npm start até /entrar ${round(firstStartMs)} ms (meta ≤ 15000 ms)`);

    const existing = summarize(existingDir);
    return {
      median_ms: round(existing.median),
      p95_ms: round(existing.p95),
      ...figures("existing_dir", existingDir),
      ...figures("new_dir", newDir),
      ...(postgres.length > 0 ? figures("postgres", postgres) : {}),
      shutdown_median_ms: round(summarize(stopTimes).median),
      fresh_clone_install_build_ms: round(fresh.buildMs),
      fresh_clone_first_start_ms: round(firstStartMs),
      fresh_clone_first_start_target_ms: 15_000,
      runs: {
        new_dir_ms: newDir.map((ms) => round(ms)),
        existing_dir_ms: existingDir.map((ms) => round(ms)),
        ...(postgres.length > 0 ? { postgres_ms: postgres.map((ms) => round(ms)) } : {}),
      },
    };
  } finally {
    cleanupSync();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("exit", cleanupSync);
  }
}

const boot: BenchCase = {
  name: "boot",
  description: "tempo do início do processo até GET /api/health = 200 (PGlite novo e existente)",
  run,
};

export default boot;
