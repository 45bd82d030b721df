import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { projectRoot } from "../../src/db/paths.js";
import { nodeEntryArgs } from "./node-entry.js";

/** One of our Node entry points (src/server/main.ts, worker-main.ts) running in its own process. */
export interface NodeProcess {
  pid: number;
  /** The last 200 kB it printed (for failure messages and "it said it started"). */
  output(): string;
  /** Resolves with the exit code ("0", "1") or the signal once it ended. */
  exited: Promise<string>;
  kill(signal: NodeJS.Signals): void;
}

/** The real server (src/server/main.ts) in its own process: what a crash test kills. */
export interface AppProcess extends NodeProcess {
  baseUrl: string;
}

const KEPT_OUTPUT = 200_000;

/** A port nobody listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Polls `check` until it is truthy; fails with `what` after `deadlineMs` (no fixed sleeps). */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T> | T,
  deadlineMs = 60_000,
  everyMs = 50,
): Promise<NonNullable<T>> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) throw new Error(`tempo esgotado esperando: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Starts `node [nodeFlags] <script>` in the project with a minimal environment plus `env`: its
 * compiled file in the test suite, else the source with tsx's loader (node itself, not the tsx CLI,
 * which would run it in a grandchild a kill would miss).
 */
export function spawnSource(
  script: string,
  env: Record<string, string>,
  nodeFlags: readonly string[] = [],
): NodeProcess {
  const child = spawn(process.execPath, [...nodeFlags, ...nodeEntryArgs(script)], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "test", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  const keep = (chunk: Buffer) => {
    printed = (printed + chunk.toString("utf8")).slice(-KEPT_OUTPUT);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? String(code))));
  return { pid: child.pid ?? 0, output: () => printed, exited, kill: (signal) => child.kill(signal) };
}

/** Waits for `ready` (polled); fails at once, with what it printed, if the process ends first. */
async function whenReady(
  child: NodeProcess,
  what: string,
  ready: () => Promise<boolean> | boolean,
  withinMs: number,
  everyMs: number,
): Promise<void> {
  let gone: string | null = null;
  void child.exited.then((how) => (gone = how));
  try {
    await waitFor(
      what,
      async () => {
        if (gone !== null)
          throw new Error(`o processo terminou (${gone}) antes de ficar pronto (${what}):\n${child.output()}`);
        return ready();
      },
      withinMs,
      everyMs,
    );
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
}

/**
 * A web process (src/server/main.ts) with `env` (DATABASE_URL or DATA_DIR, WORKER, FEEGOW_URL…) on
 * a free port of 127.0.0.1; resolves once /api/health answers.
 */
export async function startAppProcess(
  env: Record<string, string>,
  readyWithinMs = 90_000,
  nodeFlags: readonly string[] = [],
): Promise<AppProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = spawnSource("src/server/main.ts", { HOST: "127.0.0.1", PORT: String(port), ...env }, nodeFlags);
  const healthy = async () => {
    try {
      return (await fetch(`${baseUrl}/api/health`)).ok;
    } catch {
      return false;
    }
  };
  await whenReady(app, "o processo web responder /api/health", healthy, readyWithinMs, 200);
  return { ...app, baseUrl };
}

/** `npm run worker` (src/server/worker-main.ts) with `env`; resolves once it says it started. */
export async function startWorkerProcess(
  env: Record<string, string>,
  readyWithinMs = 90_000,
  nodeFlags: readonly string[] = [],
): Promise<NodeProcess> {
  const worker = spawnSource("src/server/worker-main.ts", { LOG_LEVEL: "info", ...env }, nodeFlags);
  await whenReady(
    worker,
    "o worker dizer que começou",
    () => worker.output().includes("worker started"),
    readyWithinMs,
    100,
  );
  return worker;
}
