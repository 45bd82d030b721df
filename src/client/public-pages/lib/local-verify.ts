/**
 * Runs the browser verifier (decision 077) on a file without freezing the page: in a Web Worker,
 * with a size cap before reading and a time limit after which the worker is terminated. The worker
 * comes from the caller: Vite's chunk on /verificar (module-worker.ts), an inline Blob in the
 * offline page (verificador.html), which must work opened from file://.
 */
import type { BrowserReport } from "@shared/verification/pdf-verifier";
import { LOCAL_FAILURE, LOCAL_VERIFY_TIMEOUT_MS, MAX_LOCAL_PDF_BYTES } from "@shared/verification/verdict-text";

export type LocalVerification = { kind: "done"; report: BrowserReport } | { kind: "failed"; message: string };

export async function verifyLocally(
  file: Blob,
  options: { makeWorker: () => Worker; timeoutMs?: number },
): Promise<LocalVerification> {
  if (file.size > MAX_LOCAL_PDF_BYTES) return { kind: "failed", message: LOCAL_FAILURE.tooLarge };
  let bytes: ArrayBuffer;
  try {
    bytes = await file.arrayBuffer();
  } catch {
    return { kind: "failed", message: LOCAL_FAILURE.unreadable };
  }
  const worker = options.makeWorker();
  return new Promise((resolve) => {
    const finish = (result: LocalVerification) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ kind: "failed", message: LOCAL_FAILURE.timeout }),
      options.timeoutMs ?? LOCAL_VERIFY_TIMEOUT_MS,
    );
    worker.onmessage = (event: MessageEvent<LocalVerification>) => finish(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      finish({ kind: "failed", message: LOCAL_FAILURE.unreadable });
    };
    worker.postMessage(bytes, [bytes]);
  });
}
