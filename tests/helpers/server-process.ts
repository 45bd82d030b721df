import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { projectRoot } from "../../src/db/paths.js";

/** The real server (src/server/main.ts) in its own process: what a crash test kills. */
export interface AppProcess {
  pid: number;
  baseUrl: string;
  /** Everything it printed (for the failure message). */
  output(): string;
  /** Resolves with the exit code or signal once it ended. */
  exited: Promise<string>;
  kill(signal: NodeJS.Signals): void;
}

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
export async function waitFor<T>(what: string, check: () => Promise<T> | T, deadlineMs = 60_000, everyMs = 50): Promise<NonNullable<T>> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) throw new Error(`tempo esgotado esperando: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Starts `node --import tsx src/server/main.ts` (one process) with `env` (DATABASE_URL or DATA_DIR, WORKER, FEEGOW_URL…)
 * on a free port and waits until /api/health answers.
 */
export async function startAppProcess(env: Record<string, string>, readyWithinMs = 90_000): Promise<AppProcess> {
  const port = await freePort();
  // node itself with tsx's loader (not the tsx CLI, which runs the server in a grandchild a kill would miss).
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "test", LOG_LEVEL: "warn", HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  child.stdout?.on("data", (chunk: Buffer) => (printed += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (printed += chunk.toString("utf8")));
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? String(code))));
  let gone: string | null = null;
  void exited.then((how) => (gone = how));
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      "o servidor filho responder /api/health",
      async () => {
        if (gone !== null) throw new Error(`o servidor filho terminou (${gone}) antes de ficar pronto:\n${printed}`);
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
  return {
    pid: child.pid ?? 0,
    baseUrl,
    output: () => printed,
    exited,
    kill: (signal) => child.kill(signal),
  };
}
