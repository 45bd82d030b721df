/**
 * `worker-idle`: the CPU an idle worker spends, and how soon it starts a job enqueued (decision 075).
 *
 *  - Idle CPU: each process is started, left alone BENCH_IDLE_WARMUP_S seconds (default 150: the
 *    garbage collector's memory-reducing passes after the start are over by then), then its
 *    utime + stime (/proc/<pid>/stat, all threads) is read over BENCH_IDLE_S seconds (default
 *    120) and reported in ms of CPU per second. Processes: the compiled web + worker on a new
 *    embedded PGlite (`npm start`'s process), and with DATABASE_URL the compiled worker
 *    (`npm run worker`'s process) and, for comparison, the same worker run from source through
 *    tsx (what `npm run worker` ran before decision 075). They idle side by side.
 *  - Latency (with DATABASE_URL): BENCH_IDLE_JOBS jobs (default 20, `documents.expire`, nothing
 *    to expire), one at a time, each inserted from outside the worker after a pause; the time from
 *    the insert's commit to the job being done, read by polling the row every 2 ms — median_ms /
 *    p95_ms. The pause (1.5 s) puts the worker back to sleep between jobs.
 *
 * Needs the compiled server (`npm run build:server`) and Linux (/proc). DATABASE_URL should name
 * a database of its own: the worker applies the migrations to it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { BenchCase, BenchResult } from "../run.js";
import { round, summarize } from "../stats.js";
import { freePort, waitFor } from "../../tests/helpers/server-process.js";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const compiled = (entry: string) => path.join(projectRoot, "dist", "server", "server", entry);
const WARMUP_S = Number(process.env.BENCH_IDLE_WARMUP_S ?? 150);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 120);
const JOBS = Number(process.env.BENCH_IDLE_JOBS ?? 20);
const TICKS_PER_S = 100; // USER_HZ on Linux

const log = (message: string) => process.stderr.write(`  [worker-idle] ${message}\n`);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Idler {
  name: string;
  child: ChildProcess;
  output: () => string;
  dir: string;
}

function start(name: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<Idler> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "consentir-bench-idle-"));
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "info", DATA_DIR: dir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  const keep = (chunk: Buffer) => (printed = (printed + chunk.toString("utf8")).slice(-100_000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const idler = { name, child, output: () => printed, dir };
  return waitFor(`${name} iniciar`, () => {
    if (child.exitCode !== null) throw new Error(`${name} saiu (${child.exitCode}):\n${printed}`);
    return ready.test(printed) ? idler : null;
  }).then((found) => found);
}

/** utime + stime of the process (every thread), in ticks. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start at field 3.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

async function stop(idler: Idler): Promise<void> {
  if (idler.child.exitCode === null && idler.child.signalCode === null) {
    const exited = new Promise((resolve) => idler.child.once("exit", resolve));
    idler.child.kill("SIGTERM");
    await Promise.race([exited, sleep(15_000)]);
    if (idler.child.exitCode === null && idler.child.signalCode === null) idler.child.kill("SIGKILL");
  }
  rmSync(idler.dir, { recursive: true, force: true });
}

/** Enqueue → done of `count` jobs, one at a time, inserted by a connection of the bench's own. */
async function jobLatencies(url: string, count: number): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const latencies: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      await sleep(1_500);
      const before = performance.now();
      const inserted = await client.query<{ id: string }>(
        `insert into jobs (kind, payload, run_at, max_attempts) values ('documents.expire', '{}', now(), 1) returning id`,
      );
      const committed = performance.now();
      const id = inserted.rows[0]!.id;
      for (;;) {
        const { rows } = await client.query<{ status: string }>("select status from jobs where id = $1", [id]);
        if (rows[0]?.status === "done") break;
        if (rows[0]?.status === "failed") throw new Error(`o job ${id} falhou`);
        if (performance.now() - committed > 60_000) throw new Error(`o job ${id} não rodou em 60 s`);
        await sleep(2);
      }
      latencies.push(performance.now() - committed);
      if (i === 0) log(`primeiro job: insert ${round(committed - before)} ms, até pronto ${round(latencies[0]!)} ms`);
    }
  } finally {
    await client.end();
  }
  return latencies;
}

const workerIdle: BenchCase = {
  name: "worker-idle",
  description: "CPU por segundo do worker ocioso (PGlite e PostgreSQL) e latência enfileirar → pronto",
  async run(): Promise<BenchResult> {
    if (!existsSync(compiled("main.js")) || !existsSync(compiled("worker-main.js"))) {
      throw new Error("dist/server ausente: rode `npm run build:server` antes deste caso");
    }
    const url = process.env.DATABASE_URL;
    const idlers: Idler[] = [];
    try {
      const port = await freePort();
      const starting: Promise<Idler>[] = [
        start(
          "pglite_app",
          [compiled("main.js")],
          { PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://127.0.0.1:${port}` },
          /Server listening/,
        ),
      ];
      if (url) {
        starting.push(start("postgres_worker", [compiled("worker-main.js")], { DATABASE_URL: url }, /worker started/));
        starting.push(
          start(
            "postgres_worker_tsx",
            ["--import", "tsx", "src/server/worker-main.ts"],
            { DATABASE_URL: url },
            /worker started/,
          ),
        );
      } else log("sem DATABASE_URL: só o PGlite");
      idlers.push(...(await Promise.all(starting)));
      log(`iniciados; ${WARMUP_S} s de espera, depois ${IDLE_S} s de medida`);
      await sleep(WARMUP_S * 1000);
      const before = idlers.map((idler) => cpuTicks(idler.child.pid!));
      const t0 = performance.now();
      await sleep(IDLE_S * 1000);
      const seconds = (performance.now() - t0) / 1000;
      const idle: Record<string, number> = {};
      idlers.forEach((idler, i) => {
        const ms = ((cpuTicks(idler.child.pid!) - before[i]!) * 1000) / TICKS_PER_S;
        idle[`${idler.name}_idle_cpu_ms_per_s`] = round(ms / seconds, 2);
      });
      log(JSON.stringify(idle));
      // The tsx comparison is done: it must not take the latency jobs.
      const tsx = idlers.find((idler) => idler.name === "postgres_worker_tsx");
      if (tsx) await stop(tsx);
      if (!url) return { median_ms: Number.NaN, p95_ms: Number.NaN, idle_s: round(seconds), ...idle };
      const latency = summarize(await jobLatencies(url, JOBS));
      return {
        median_ms: round(latency.median),
        p95_ms: round(latency.p95),
        max_ms: round(latency.max),
        jobs: latency.n,
        idle_s: round(seconds),
        ...idle,
      };
    } finally {
      await Promise.all(idlers.map(stop));
    }
  },
};

export default workerIdle;
