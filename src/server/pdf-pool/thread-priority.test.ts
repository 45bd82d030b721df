import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { sampleDocumentInput } from "../../../tests/unit/pdf/fixtures.js";
import { createPdfPool, type PdfPool } from "./pdf-pool.js";
import { PDF_THREAD_NICE } from "./thread-priority.js";

/** Nice value of each thread of this process, by thread id (Linux: /proc/self/task/<tid>/stat, field 19). */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      nices.set(Number(tid), Number(fields[16]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return nices;
}

describe("PDF threads' CPU priority", () => {
  let pool: PdfPool | undefined;
  afterAll(async () => {
    await pool?.close();
  });

  it("each PDF thread runs below the event loop's priority, and the event loop keeps its own", async () => {
    const before = os.getPriority(0);
    const lowered = [...threadNices().values()].filter((nice) => nice === PDF_THREAD_NICE).length;
    pool = createPdfPool({ threads: 2 });
    // Two renders at once: both threads started and working.
    const pdfs = await Promise.all([pool.render(sampleDocumentInput()), pool.render(sampleDocumentInput())]);
    for (const pdf of pdfs) expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    const nices = threadNices();
    expect([...nices.values()].filter((nice) => nice === PDF_THREAD_NICE).length - lowered).toBe(2);
    // The main thread (its id is the process id) and the process as a whole are untouched.
    expect(nices.get(process.pid)).toBe(before);
    expect(os.getPriority(0)).toBe(before);
  });
});
