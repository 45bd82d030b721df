/**
 * Real app processes for the multi-process benchmarks (issue 16): web processes (src/server/main.ts)
 * and the background worker (src/server/worker-main.ts, what `npm run worker` runs), each its own
 * Node process loading the sources through tsx, on one PostgreSQL database made for the run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import pg from "pg";
import { projectRoot } from "../../src/db/paths.js";
import { type AppProcess, freePort, waitFor } from "../../tests/helpers/server-process.js";

export { type AppProcess, waitFor };

/** Extra Node flags for every process (BENCH_CPU_PROF_DIR: a V8 CPU profile per process, written when it stops). */
function nodeFlags(): string[] {
  const dir = process.env.BENCH_CPU_PROF_DIR;
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [];
}

/**
 * A web process (src/server/main.ts through tsx's loader, as tests/helpers/server-process.ts
 * starts it, plus nodeFlags()) on a free port of 127.0.0.1; resolves once /api/health answers.
 */
export async function startAppProcess(env: Record<string, string>, readyWithinMs = 90_000): Promise<AppProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags(), "--import", "tsx", "src/server/main.ts"], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "test", LOG_LEVEL: "warn", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  const keep = (chunk: Buffer) => {
    printed = (printed + chunk.toString("utf8")).slice(-200_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? String(code))));
  let gone: string | null = null;
  void exited.then((how) => (gone = how));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      "o processo web responder /api/health",
      async () => {
        if (gone !== null) throw new Error(`o processo web terminou (${gone}) antes de ficar pronto:\n${printed}`);
        try {
          return (await fetch(`${baseUrl}/api/health`)).ok;
        } catch {
          return false;
        }
      },
      readyWithinMs,
      200,
    );
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return { pid: child.pid ?? 0, baseUrl, output: () => printed, exited, kill: (signal) => child.kill(signal) };
}

/** A fresh database on the server DATABASE_URL names, and how to drop it. */
export async function scratchDatabase(adminUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => dropScratchDatabase(adminUrl, name),
  };
}

/**
 * Drops a bench database once its connections are gone. A pool's end() resolves while the sockets
 * of its last clients are still closing; forcing the drop at that moment terminates them and the
 * pool reports an unhandled error, so force only after a few tries.
 */
export async function dropScratchDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        await client.query(`drop database if exists "${name}"`);
        return;
      } catch (error) {
        // 55006: still in use by other sessions.
        if ((error as { code?: string }).code !== "55006") throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

export interface WorkerProcess {
  pid: number;
  output(): string;
  stop(): Promise<void>;
}

/** `npm run worker` (node + tsx's loader, so a kill reaches the worker itself); resolves once it says it started. */
export async function startWorkerProcess(env: Record<string, string>, readyWithinMs = 90_000): Promise<WorkerProcess> {
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags(), "--import", "tsx", "src/server/worker-main.ts"], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "test", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  const keep = (chunk: Buffer) => {
    printed = (printed + chunk.toString("utf8")).slice(-200_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? String(code))));
  let gone: string | null = null;
  void exited.then((how) => (gone = how));
  try {
    await waitFor(
      "o worker dizer que começou",
      () => {
        if (gone !== null) throw new Error(`o worker terminou (${gone}) antes de começar:\n${printed}`);
        return printed.includes("worker started");
      },
      readyWithinMs,
      100,
    );
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    pid: child.pid ?? 0,
    output: () => printed,
    stop: async () => {
      if (gone === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Stops an app process and waits for it to end. */
export async function stopAppProcess(app: AppProcess): Promise<void> {
  app.kill("SIGTERM");
  await app.exited;
}

/** CPU seconds (user + system, all threads) a process has used so far; 0 when it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces), counted from field 3.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks / 100;
  } catch {
    return 0;
  }
}

/** The 1-minute load average, as `uptime` prints it. */
export function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "?";
  }
}
