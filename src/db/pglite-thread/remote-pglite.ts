/**
 * The app's side of the PGlite thread (decision 038): the few calls drizzle's PGlite driver and
 * the app make on a PGlite (`query`, `transaction`, `exec`, `listen`, `dumpDataDir`, `close`),
 * each sent to the thread as one message. PGlite has one session, so, as PGlite itself does, one
 * lock keeps a transaction's statements together: nothing else reaches the database between its
 * BEGIN and its COMMIT.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { isBulkDatabaseWork } from "../database-priority.js";
import {
  type FromThread,
  fromThreadError,
  type PgliteThreadInit,
  type ThreadQueryOptions,
  type ToThread,
} from "./protocol.js";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Pending = { resolve(value: unknown): void; reject(error: Error): void };
type Release = () => void;

export interface RemoteQueryResult<T> {
  rows: T[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

/** What a query may pass as PGlite options (parsers: only "keep the text" ones, as drizzle's driver does). */
export interface RemoteQueryOptions {
  rowMode?: "array" | "object";
  parsers?: Record<number, (value: string) => unknown>;
}

/** The calls a transaction gets (drizzle's PGlite session uses `query`). */
export interface RemoteTransaction {
  query<T>(sql: string, params?: unknown[], options?: RemoteQueryOptions): Promise<RemoteQueryResult<T>>;
  exec(sql: string): Promise<RemoteQueryResult<unknown>[]>;
}

/**
 * How to start the thread: dist runs pglite-thread.js; from source (tests, `npm run dev`, benches)
 * a one-line bootstrap registers tsx (a devDependency; dist never needs it) and then imports the
 * .ts file — `--import tsx` in a worker's execArgv does not reach the worker's own entry file.
 */
function threadEntry(): { filename: string | URL; eval: boolean } {
  const fromSource = import.meta.url.endsWith(".ts");
  const url = new URL(`./pglite-thread.${fromSource ? "ts" : "js"}`, import.meta.url);
  if (!fromSource) return { filename: url, eval: false };
  const tsxPackage = createRequire(import.meta.url).resolve("tsx/package.json");
  const tsxApi = pathToFileURL(path.join(path.dirname(tsxPackage), "dist/esm/api/index.mjs")).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return { filename: bootstrap, eval: true };
}

function threadOptions(options?: RemoteQueryOptions): ThreadQueryOptions {
  return {
    rowMode: options?.rowMode,
    textTypes: options?.parsers ? Object.keys(options.parsers).map(Number) : undefined,
  };
}

/** How long bulk work may be passed over by interactive calls before it goes first anyway. */
export const BULK_MAX_WAIT_MS = 250;

/**
 * A one-holder lock with two lines: interactive callers first, bulk work (decision 038) when no
 * interactive caller waits — or when the first bulk caller has waited BULK_MAX_WAIT_MS.
 */
export class PriorityLock {
  private held = false;
  private readonly interactive: (() => void)[] = [];
  private readonly bulk: { since: number; grant(): void }[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  async acquire(isBulk: boolean): Promise<Release> {
    if (this.held) {
      await new Promise<void>((grant) => {
        if (isBulk) this.bulk.push({ since: this.now(), grant });
        else this.interactive.push(grant);
      });
    }
    this.held = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.handOver();
    };
  }

  private handOver(): void {
    const oldestBulk = this.bulk[0];
    const bulkFirst =
      oldestBulk !== undefined && (this.interactive.length === 0 || this.now() - oldestBulk.since >= BULK_MAX_WAIT_MS);
    const next = bulkFirst ? this.bulk.shift()!.grant : this.interactive.shift();
    if (next) next();
    else this.held = false;
  }
}

export class RemotePglite {
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private readonly lock = new PriorityLock();
  private nextId = 1;
  private failure: Error | null = null;
  closed = false;

  private constructor(private readonly worker: Worker) {
    // Like an in-process PGlite, an idle database keeps no process alive; a pending call does.
    worker.unref();
    worker.on("message", (message: FromThread) => this.receive(message));
    worker.on("error", (error) => this.fail(error));
    worker.on("exit", (code) => this.fail(new Error(`a thread do banco de dados terminou (código ${code})`)));
  }

  /** Starts the thread and waits until PGlite is open in it. */
  static async start(init: PgliteThreadInit): Promise<RemotePglite> {
    const entry = threadEntry();
    const transfer = init.loadDataDir ? [init.loadDataDir] : [];
    const worker = new Worker(entry.filename, {
      eval: entry.eval,
      workerData: init,
      transferList: transfer,
      name: "pglite",
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromThread) => {
        if (message.kind === "ready") done(null);
        else if (message.kind === "failed") done(fromThreadError(message.error));
      };
      const onError = (error: Error) => done(error);
      const onExit = (code: number) => done(new Error(`a thread do banco de dados terminou ao abrir (código ${code})`));
      const done = (error: Error | null) => {
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        if (error) {
          void worker.terminate();
          reject(error);
        } else resolve();
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
    });
    return new RemotePglite(worker);
  }

  private receive(message: FromThread): void {
    if (message.kind === "notification") {
      for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload);
      return;
    }
    if (message.kind !== "result" && message.kind !== "error") return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    if (this.pending.size === 0) this.worker.unref();
    if (message.kind === "result") pending.resolve(message.value);
    else pending.reject(fromThreadError(message.error));
  }

  private fail(error: Error): void {
    if (!this.failure) this.failure = error;
    this.closed = true;
    for (const pending of this.pending.values()) pending.reject(this.failure);
    this.pending.clear();
  }

  /** Sends one message and waits for its answer (the caller holds the lock). */
  private call<T>(message: DistributiveOmit<ToThread, "id">): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error("o banco de dados foi fechado"));
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  private async locked<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.lock.acquire(isBulkDatabaseWork());
    try {
      return await work();
    } finally {
      release();
    }
  }

  private unlockedQuery<T>(sql: string, params: unknown[] = [], options?: RemoteQueryOptions) {
    return this.call<RemoteQueryResult<T>>({ kind: "query", sql, params, options: threadOptions(options) });
  }

  query<T>(sql: string, params: unknown[] = [], options?: RemoteQueryOptions): Promise<RemoteQueryResult<T>> {
    return this.locked(() => this.unlockedQuery<T>(sql, params, options));
  }

  exec(sql: string): Promise<RemoteQueryResult<unknown>[]> {
    return this.locked(() => this.call({ kind: "exec", sql }));
  }

  /**
   * BEGIN … COMMIT (ROLLBACK when `work` throws), with the database held for the whole of it. The
   * BEGIN travels with the first statement (one message less per transaction); a transaction
   * that ran no statement sends nothing at all.
   */
  transaction<T>(work: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    return this.locked(async () => {
      let begun = false;
      const begin = () => {
        const first = !begun;
        begun = true;
        return first;
      };
      const tx: RemoteTransaction = {
        query: (sql, params = [], options) =>
          this.call({ kind: "query", sql, params, options: threadOptions(options), begin: begin() }),
        exec: (sql) => this.call({ kind: "exec", sql, begin: begin() }),
      };
      let result: T;
      try {
        result = await work(tx);
      } catch (error) {
        if (begun && !this.failure) await this.unlockedQuery("ROLLBACK");
        throw error;
      }
      if (begun) await this.unlockedQuery("COMMIT");
      return result;
    });
  }

  /** PGlite's LISTEN: `onNotification` gets each payload sent on `channel` after its transaction commits. */
  async listen(channel: string, onNotification: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.locked(() => this.call({ kind: "listen", channel }));
    }
    set.add(onNotification);
    return async () => {
      const current = this.listeners.get(channel);
      if (!current?.delete(onNotification) || current.size > 0) return;
      this.listeners.delete(channel);
      if (!this.closed) await this.locked(() => this.call({ kind: "unlisten", channel }));
    };
  }

  /** PGlite's dump of its data dir, taken between two statements (never inside a transaction). */
  async dumpDataDir(_compression?: "none"): Promise<Blob> {
    const bytes = await this.locked(() => this.call<ArrayBuffer>({ kind: "dump" }));
    return new Blob([bytes]);
  }

  /** Closes PGlite (its files are flushed) and ends the thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    const exited = new Promise<void>((resolve) => this.worker.once("exit", () => resolve()));
    try {
      await this.locked(() => this.call({ kind: "close" }));
    } finally {
      this.closed = true;
      // Held until the thread has ended (an idle thread is unref'd and would not keep us waiting).
      this.worker.ref();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]);
      clearTimeout(timer);
      await this.worker.terminate();
    }
  }
}
