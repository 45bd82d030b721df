import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { type Database, openDatabase } from "../../src/db/client.js";
import { buildApp } from "../../src/server/app.js";
import { loadEnv } from "../../src/server/env.js";
import { dropScratchDatabase } from "./app-processes.js";

export interface BenchTarget {
  label: "pglite" | "postgres";
  database: Database;
  app: FastifyInstance;
  baseUrl: string;
  close(): Promise<void>;
}

/** The databases a data benchmark runs on: PGlite always; PostgreSQL when DATABASE_URL is set (in a throwaway database). */
export function benchDatabases(): ("pglite" | "postgres")[] {
  const all: ("pglite" | "postgres")[] = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
  // BENCH_DATABASES=postgres: only one of them (e.g. the 1M-document run, too big for PGlite's memory).
  const only = process.env.BENCH_DATABASES?.split(",").map((name) => name.trim());
  return only ? all.filter((label) => only.includes(label)) : all;
}

/** The real app on a fresh database, listening on a free port. */
export async function startBenchTarget(label: "pglite" | "postgres"): Promise<BenchTarget> {
  let dropDatabase: (() => Promise<void>) | undefined;
  let database: Database;
  if (label === "postgres") {
    const adminUrl = process.env.DATABASE_URL ?? "";
    const name = `consentir_bench_${Date.now()}_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    database = await openDatabase({ kind: "postgres", url: url.toString() });
    dropDatabase = () => dropScratchDatabase(adminUrl, name);
  } else {
    database = await openDatabase({ kind: "pglite-memory" });
  }
  const env = loadEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    RATE_LIMIT_AUTH_PER_MINUTE: "100000",
    RATE_LIMIT_PUBLIC_PER_MINUTE: "100000",
    DATA_DIR: path.join(os.tmpdir(), "consentir-bench-data"),
  });
  const app = await buildApp({ env, database, logger: false });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  return {
    label,
    database,
    app,
    baseUrl: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await app.close();
      await database.close();
      await dropDatabase?.();
    },
  };
}

/** Signs up an independent professional through the API and returns the session cookie. */
/** The password of every bench clinic owner (they re-enter it to sign as professional). */
export const BENCH_PASSWORD = "bench-senha";

/**
 * fetch, tried once more when a kept-alive socket was closed by the server while the bench was
 * busy filling tables (ECONNRESET before the request was read).
 */
async function fetchFresh(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== "ECONNRESET" && code !== "UND_ERR_SOCKET") throw error;
    return fetch(url, init);
  }
}

export async function benchClinic(
  target: Pick<BenchTarget, "baseUrl">,
  n: number,
): Promise<{ cookie: string; tenantId: string }> {
  const cpf = validBenchCpf(n);
  const email = `bench.${n}.${Date.now()}@consentir.test`;
  const body = {
    profile_type: "profissional_independente",
    nome: `Dra. Bench ${n}`,
    cpf,
    email,
    password: BENCH_PASSWORD,
    confirmPassword: BENCH_PASSWORD,
    conselho_tipo: "COREN",
    conselho_numero: "1234",
    conselho_uf: "SP",
    especialidades: [],
  };
  const signUp = await fetchFresh(`${target.baseUrl}/api/auth/sign-up`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (signUp.status !== 201) throw new Error(`sign-up ${signUp.status}: ${await signUp.text()}`);
  const { tenant_id } = (await signUp.json()) as { tenant_id: string };
  const signIn = await fetchFresh(`${target.baseUrl}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  return { cookie, tenantId: tenant_id };
}

/** A valid CPF derived from n (check digits computed). */
function validBenchCpf(n: number): string {
  const base = String(100_000_000 + (n % 800_000_000))
    .slice(0, 9)
    .padStart(9, "1");
  const digits = base.split("").map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join("");
}

/** Times `count` sequential GETs of `path(i)`; returns the durations in ms. */
export async function timeRequests(
  target: BenchTarget,
  cookie: string,
  count: number,
  path: (i: number) => string,
): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(`${target.baseUrl}${path(i)}`, { headers: { cookie } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET ${path(i)} → ${response.status}`);
    durations.push(performance.now() - started);
  }
  return durations;
}
