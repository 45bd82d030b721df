/**
 * How the PDF pool's threads load their code. Node 20.19+ can `require()` an ES module, and
 * piscina's thread tries `require(entry)` before `import()`; a thread ended inside that require
 * (the pool closing while its threads still load) aborted the whole process on a failed assertion
 * in Node (seen once in this suite under load; reproduced by ending threads mid-require). The
 * pool's threads therefore run with require(esm) off, so piscina falls back to `import()`.
 * This file runs the suite's compiled copy: plain ES modules, as in dist/server.
 */
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { NO_REQUIRE_ESM, createPdfPool, pdfWorkerEntry } from "../../src/server/pdf-pool/pdf-pool.js";
import { sampleDocumentInput } from "../unit/pdf/fixtures.js";

/** What `require(entry)` does in a thread started with `execArgv`: "loaded", or the error's code or name. */
async function requireInThread(filename: string, execArgv: string[]): Promise<string> {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     try { require(workerData); parentPort.postMessage("loaded"); } catch (error) { parentPort.postMessage(error.code ?? error.name); }`,
    { eval: true, execArgv, workerData: filename },
  );
  try {
    return await new Promise<string>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe("the PDF pool's threads", () => {
  it("start with require(esm) off, so the entry (an ES module) is loaded by import(), not require()", async () => {
    const entry = pdfWorkerEntry();
    expect(entry.filename).toMatch(/pdf-worker\.js$/);
    expect(entry.execArgv).toContain(NO_REQUIRE_ESM);
    // Without the option this Node would load the module through require (the path that aborted).
    expect(await requireInThread(entry.filename, [])).toBe("loaded");
    expect(await requireInThread(entry.filename, entry.execArgv)).not.toBe("loaded");
  });

  it("still render with that option, and a pool closed while its threads load ends cleanly", async () => {
    const pool = createPdfPool({ threads: 2 });
    const pdf = await pool.render(sampleDocumentInput());
    expect(Buffer.from(pdf).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    await pool.close();
    // Closed right after the threads were started: they are ended while loading.
    const early = createPdfPool({ threads: 2 });
    const rendering = early.render(sampleDocumentInput());
    await early.close();
    expect(
      Buffer.from(await rendering)
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");
  });
});
