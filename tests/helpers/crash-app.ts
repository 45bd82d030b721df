/**
 * The app in a real child process for kill -9 tests (tests/helpers/app-process.ts): started with
 * its environment, ready when it prints its port; `stalled` resolves when its stalling worker has
 * sealed a PDF and stopped before storing it (APP_PROCESS_MODE=stall). On PostgreSQL each test
 * gets a database of its own, so the children's workers never meet other tests' jobs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import os from "node:os";
import pg from "pg";
import { inject } from "vitest";
import { projectRoot } from "../../src/db/paths.js";
import { nodeEntryArgs } from "./node-entry.js";

export const STARTUP_MS = 120_000;
export const RECOVERY_MS = 120_000;

export interface AppProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Resolves when the stalling worker has sealed and stopped before storing (stall mode). */
  stalled: Promise<void>;
  exited: Promise<void>;
}

export function startAppProcess(env: Record<string, string>): Promise<AppProcess> {
  const child = spawn(process.execPath, nodeEntryArgs("tests/helpers/app-process.ts"), {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? os.tmpdir(),
      // On PGlite, a new data directory starts from the suite's migrated snapshot, not initdb.
      ...(env.DATABASE_URL ? {} : { APP_PROCESS_PGLITE_SNAPSHOT: inject("pgliteSnapshot") }),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderr: string[] = [];
  child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let markStalled!: () => void;
  const stalled = new Promise<void>((resolve) => (markStalled = resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the app process did not start in ${STARTUP_MS / 1000} s: ${stderr.join("")}`));
    }, STARTUP_MS);
    let buffered = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        let message: { port?: number; stalled?: boolean };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          continue;
        }
        if (message.stalled) markStalled();
        if (message.port) {
          clearTimeout(timer);
          resolve({ child, baseUrl: `http://127.0.0.1:${message.port}`, stalled, exited });
        }
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the app process ended before it was ready (${code ?? signal}): ${stderr.join("")}`));
    });
  });
}

export async function within<T>(what: string, ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms / 1000} s`)), ms)),
  );
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** On PostgreSQL: a database of this test's own (the children's workers must not meet other tests' jobs). */
export async function ownPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  if (process.env.TEST_DB !== "postgres") return null;
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
  const name = `consentir_crash_${process.pid}_${Date.now().toString(36)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists "${name}" with (force)`) };
}
