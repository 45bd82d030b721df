/**
 * Entry point of a PDF worker thread (piscina; decision 012). The fonts are loaded when the
 * thread starts (piscina imports this file before declaring the thread ready), once per thread.
 * The PDF goes back transferred, not copied.
 *
 * The thread lowers its own CPU priority (PDF_THREAD_NICE): with every core drawing PDFs, the
 * event loop (and the database, on the same machine) still gets the CPU first, so API calls stay
 * quick; a PDF takes the same time whenever a core is free (bench api-under-pdf-load).
 */
import { move } from "piscina";
import { pdfEngine } from "../../pdf/fonts.js";
import { type PdfTask, type PdfVerifyTask, runPdfTask, runVerifyTask } from "./pdf-tasks.js";
import { lowerThreadPriority } from "./thread-priority.js";

lowerThreadPriority();
pdfEngine();

export default async function runTask(task: PdfTask | PdfVerifyTask): Promise<unknown> {
  // A verification answers plain data (cloned back); the rest answer a PDF.
  if (task.kind === "verify") return runVerifyTask(task);
  const pdf = await runPdfTask(task);
  // A Buffer that owns its whole ArrayBuffer can be transferred; a pooled slab (small Buffers) is
  // copied first.
  const owned = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? pdf : new Uint8Array(pdf);
  return move(owned as Uint8Array);
}
