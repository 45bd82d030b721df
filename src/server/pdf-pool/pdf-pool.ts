/**
 * The PDF worker pool (decision 012): drawing a document and sealing the final PDF are
 * CPU work of tens to hundreds of milliseconds, so they run in worker threads (piscina) and the
 * event loop keeps answering every clinic meanwhile.
 *
 * - Size: one thread per core (os.availableParallelism(), at least 1), started on first use and
 *   kept; each thread loads the fonts once.
 * - Admission: at most `threads` renders run and `maxQueue` wait (default 4 per thread). A
 *   request that finds no room gets SERVER_BUSY (503 + Retry-After) at once instead of waiting
 *   behind a queue that would time it out anyway. Background work (the finalize job) waits for
 *   room instead, and only while less than half the queue is taken, so it never takes the last
 *   places a person is waiting for.
 * - A runaway render (legacy content above today's limits) is bounded: each thread has its own
 *   heap limit and each task a timeout; either ends that thread only (piscina starts another).
 *
 * The worker file is found next to this module: pdf-worker.ts when running from source (tests,
 * `npm run dev`, benchmarks: the thread loads it through tsx) and pdf-worker.js in dist/server.
 */
import { createRequire } from "node:module";
import os from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Piscina } from "piscina";
import type { DocumentPdfInput } from "../../pdf/document-pdf.js";
import { AppError } from "../errors.js";
import type { SealMaterial } from "../services/sealing/seal-certificate.js";
import type { SealOptions } from "../services/sealing/seal-pdf.js";
import type { VerifySignedPdfOptions } from "../services/sealing/verify-signed-pdf.js";
import {
  asBuffer,
  cloneableInput,
  type PdfTask,
  type PdfVerification,
  type PdfVerifyTask,
  sealKeyOf,
} from "./pdf-tasks.js";
import { verifyPdfBytes } from "./pdf-verify.js";

/** Waiting places per thread (the queue limit is threads × this unless configured). */
export const QUEUE_PER_THREAD = 4;
/** A task (queue wait included) that takes longer than this is abandoned and its thread replaced. */
export const PDF_TASK_TIMEOUT_MS = 30_000;
/** How long background work waits for room before giving up for this run (the job is retried). */
export const BACKGROUND_WAIT_MS = 60_000;
/** Old-generation heap of each PDF thread (a render at the size limits needs well under 200 MB). */
export const PDF_THREAD_HEAP_MB = 512;

/** A PAdES signature to apply: whose key, and how (time, policy, name). */
export interface PdfSignature {
  material: SealMaterial;
  options: SealOptions;
}

export interface PdfRunOptions {
  /** Background work: waits for room (up to BACKGROUND_WAIT_MS) instead of failing at once. */
  background?: boolean;
}

/** Draws documents and seals final PDFs; the pool, or the inline renderer (tests, scripts). */
export interface PdfRenderer {
  render(input: DocumentPdfInput, options?: PdfRunOptions): Promise<Buffer>;
  /** Draws the final PDF and seals it, in one task (the bytes cross threads once). */
  renderAndSeal(
    input: DocumentPdfInput,
    seal: SealMaterial,
    sealOptions: SealOptions,
    options?: PdfRunOptions,
  ): Promise<Buffer>;
  /** Draws the final PDF and applies each signature in order (e.g. the professional's, then the seal). */
  renderAndSign(input: DocumentPdfInput, signatures: PdfSignature[], options?: PdfRunOptions): Promise<Buffer>;
  /** Checks a PDF someone sent (its seal, the evidence it carries), off the event loop (decision 049). */
  verify(pdf: Buffer, options: VerifySignedPdfOptions): Promise<PdfVerification>;
}

export interface PdfPoolOptions {
  /** Worker threads (default: os.availableParallelism(), at least 1). */
  threads?: number;
  /** Tasks that may wait for a thread (default: threads × QUEUE_PER_THREAD). */
  maxQueue?: number;
  taskTimeoutMs?: number;
  backgroundWaitMs?: number;
  threadHeapMb?: number;
}

export interface PdfPoolStats {
  threads: number;
  maxQueue: number;
  /** Tasks accepted and not finished (running + waiting). */
  inFlight: number;
  completed: number;
  rejected: number;
}

export interface PdfPool extends PdfRenderer {
  readonly threads: number;
  readonly maxQueue: number;
  stats(): PdfPoolStats;
  /** Refuses new tasks (SERVER_BUSY), lets running and queued ones finish, ends the threads. */
  close(): Promise<void>;
}

export function defaultPdfThreads(): number {
  return Math.max(1, os.availableParallelism());
}

/**
 * Node 20.19+ lets `require()` load an ES module, and piscina's thread tries `require(filename)`
 * before `import()`. A thread ended while inside that require (the pool closing while its threads
 * still load, e.g. a process stopped right after its first PDF) hits a failed assertion in Node
 * and aborts the whole process, not just the thread: seen in the integration suite, and reproduced
 * by terminating threads mid-require. With require(esm) off in the pool's threads, piscina's
 * require throws and it loads the entry with `import()`, whose loader survives a termination.
 */
export const NO_REQUIRE_ESM = "--no-experimental-require-module";

/** The worker entry point and the Node options its threads need to load it. */
export function pdfWorkerEntry(): { filename: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith(".ts");
  const filename = fileURLToPath(new URL(`./pdf-worker.${fromSource ? "ts" : "js"}`, import.meta.url));
  const noRequireEsm = process.allowedNodeEnvironmentFlags.has(NO_REQUIRE_ESM) ? [NO_REQUIRE_ESM] : [];
  if (!fromSource) return { filename, execArgv: noRequireEsm };
  // From source: the thread loads TypeScript through tsx (a devDependency; dist never needs it).
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  return { filename, execArgv: [...noRequireEsm, "--import", tsx] };
}

function verifierUnloadable(error: unknown): boolean {
  // The error crosses the thread without its code: read its message.
  const message = error instanceof Error ? error.message : "";
  return import.meta.url.endsWith(".ts") && /Cannot find module .*pdf-verify|Unknown file extension/.test(message);
}

function isQueueFull(error: unknown): boolean {
  return error instanceof Error && /Task queue is at limit|No task queue available/.test(error.message);
}

export function createPdfPool(options: PdfPoolOptions = {}): PdfPool {
  const threads = Math.max(1, Math.floor(options.threads ?? defaultPdfThreads()));
  const maxQueue = Math.max(0, Math.floor(options.maxQueue ?? threads * QUEUE_PER_THREAD));
  const taskTimeoutMs = options.taskTimeoutMs ?? PDF_TASK_TIMEOUT_MS;
  const backgroundWaitMs = options.backgroundWaitMs ?? BACKGROUND_WAIT_MS;
  /** Background work may start only while fewer than this many tasks are in flight. */
  const backgroundRoom = threads + Math.ceil(maxQueue / 2);

  let piscina: Piscina<PdfTask | PdfVerifyTask, unknown> | undefined;
  let closed = false;
  let inFlight = 0;
  let completed = 0;
  let rejected = 0;
  /** Moving average of a task's duration, for Retry-After. */
  let averageMs = 300;
  const waiting = new Set<() => void>();

  const pool = (): Piscina<PdfTask | PdfVerifyTask, unknown> => {
    if (!piscina) {
      const entry = pdfWorkerEntry();
      piscina = new Piscina<PdfTask | PdfVerifyTask, unknown>({
        filename: entry.filename,
        execArgv: entry.execArgv,
        minThreads: threads,
        maxThreads: threads,
        // A backstop: our own count below refuses first.
        maxQueue: Math.max(maxQueue, 1),
        resourceLimits: { maxOldGenerationSizeMb: options.threadHeapMb ?? PDF_THREAD_HEAP_MB },
        name: "default",
      });
    }
    return piscina;
  };

  const retryAfterSeconds = () => {
    const rounds = Math.max(0, inFlight - threads) / threads + 1;
    return Math.min(30, Math.max(1, Math.ceil((rounds * averageMs) / 1000)));
  };

  const busy = () => {
    rejected += 1;
    const seconds = retryAfterSeconds();
    const error = new AppError("SERVER_BUSY", undefined, { details: { tentar_novamente_em_segundos: seconds } });
    error.retryAfterSeconds = seconds;
    return error;
  };

  /** Resolves when a task ends (or after `ms`). */
  const nextRelease = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiting.add(done);
    });

  /** Takes a place when fewer than `limit` tasks are in flight (check and take in one step). */
  const enter = (limit: number) => {
    if (inFlight >= limit) return false;
    inFlight += 1;
    return true;
  };

  /** Waits for a place (background work); SERVER_BUSY after backgroundWaitMs. */
  const enterWhenFree = async () => {
    const deadline = Date.now() + backgroundWaitMs;
    while (!enter(backgroundRoom)) {
      const left = deadline - Date.now();
      if (left <= 0 || closed) throw busy();
      await nextRelease(Math.min(left, 1000));
    }
  };

  const run = async (task: PdfTask | PdfVerifyTask, runOptions: PdfRunOptions = {}): Promise<unknown> => {
    const background = runOptions.background ?? false;
    for (;;) {
      // Shutting down: the same answer as a full queue (a job goes back to its queue).
      if (closed) throw busy();
      if (background) await enterWhenFree();
      else if (!enter(threads + maxQueue)) throw busy();
      const started = performance.now();
      try {
        const result = await pool().run(task, { signal: AbortSignal.timeout(taskTimeoutMs) });
        completed += 1;
        averageMs = averageMs * 0.8 + (performance.now() - started) * 0.2;
        return result;
      } catch (error) {
        if (!isQueueFull(error)) throw error;
        // Piscina's own limit (a backstop, never tighter than ours in practice): the same answer
        // for a request; background work goes back to waiting.
        if (!background) throw busy();
      } finally {
        inFlight -= 1;
        for (const wake of waiting) wake();
      }
    }
  };

  const runPdf = async (task: PdfTask, runOptions?: PdfRunOptions) =>
    asBuffer((await run(task, runOptions)) as Uint8Array);

  return {
    threads,
    maxQueue,
    render: (input, runOptions) => runPdf({ kind: "render", input: cloneableInput(input) }, runOptions),
    renderAndSeal: (input, seal, sealOptions, runOptions) =>
      runPdf(
        {
          kind: "render-and-sign",
          input: cloneableInput(input),
          signatures: [{ seal: sealKeyOf(seal), options: sealOptions }],
        },
        runOptions,
      ),
    renderAndSign: (input, signatures, runOptions) =>
      runPdf(
        {
          kind: "render-and-sign",
          input: cloneableInput(input),
          signatures: signatures.map((s) => ({ seal: sealKeyOf(s.material), options: s.options })),
        },
        runOptions,
      ),
    // The bytes are copied into the task (the request's body stays the request's).
    verify: async (pdf, options) => {
      try {
        return (await run({ kind: "verify", pdf: new Uint8Array(pdf), options })) as PdfVerification;
      } catch (error) {
        if (!verifierUnloadable(error)) throw error;
        // From source under tsx's require hook (npm run dev, scripts) a thread cannot import the
        // verifier (canonicalize is ES-only and require(esm) is off in the threads): checked here
        // instead. The built server (dist) and the test suites run it in a thread.
        return verifyPdfBytes(pdf, options);
      }
    },
    stats: () => ({ threads, maxQueue, inFlight, completed, rejected }),
    async close() {
      closed = true;
      for (const wake of waiting) wake();
      const current = piscina;
      piscina = undefined;
      await current?.close();
    },
  };
}
