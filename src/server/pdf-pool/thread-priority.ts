import os from "node:os";

/** Nice value of the PDF threads: below the event loop (0), never starved (CFS still gives them a share). */
export const PDF_THREAD_NICE = 10;

/**
 * Lowers the calling thread's CPU priority to PDF_THREAD_NICE (never raises it). On Linux the nice
 * value belongs to each thread, and os.setPriority(0, …) (setpriority(PRIO_PROCESS, 0)) changes
 * the calling thread only, so the event loop keeps its own. Elsewhere (where it would be the whole
 * process) and wherever the system refuses, nothing changes. Returns the thread's nice value after.
 */
export function lowerThreadPriority(nice = PDF_THREAD_NICE): number | null {
  if (process.platform !== "linux") return null;
  try {
    const current = os.getPriority(0);
    if (current < nice) os.setPriority(0, nice);
    return os.getPriority(0);
  } catch {
    return null;
  }
}
