/**
 * Real app processes for the multi-process benchmarks: web processes (src/server/main.ts)
 * and the background worker (src/server/worker-main.ts, what `npm run worker` runs), each its own
 * Node process loading the sources through tsx, on one PostgreSQL database made for the run.
 */
import { readFileSync } from "node:fs";
import pg from "pg";
import {
  type AppProcess,
  type NodeProcess,
  startAppProcess as startSourceApp,
  startWorkerProcess as startSourceWorker,
  waitFor,
} from "../../tests/helpers/server-process.js";

export { type AppProcess, waitFor };

/** Extra Node flags for every process (BENCH_CPU_PROF_DIR: a V8 CPU profile per process, written when it stops). */
function nodeFlags(): string[] {
  const dir = process.env.BENCH_CPU_PROF_DIR;
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [];
}

/** A web process (tests/helpers/server-process.ts's, plus nodeFlags()); resolves once /api/health answers. */
export function startAppProcess(env: Record<string, string>, readyWithinMs = 90_000): Promise<AppProcess> {
  return startSourceApp(env, readyWithinMs, nodeFlags());
}

/** A fresh database on the server DATABASE_URL names, and how to drop it. */
export async function scratchDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
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

/** `npm run worker` (plus nodeFlags()); resolves once it says it started. */
export async function startWorkerProcess(env: Record<string, string>, readyWithinMs = 90_000): Promise<WorkerProcess> {
  const worker: NodeProcess = await startSourceWorker(env, readyWithinMs, nodeFlags());
  let gone = false;
  void worker.exited.then(() => (gone = true));
  return {
    pid: worker.pid,
    output: worker.output,
    stop: async () => {
      if (!gone) worker.kill("SIGTERM");
      await worker.exited;
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
