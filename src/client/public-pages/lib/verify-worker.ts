/// <reference lib="webworker" />
/**
 * The browser verifier's thread (decision 077): the page posts the PDF's bytes, the worker answers
 * the report. A hostile file can cost this thread its time, never the page's: the page terminates
 * it at the time limit (local-verify.ts).
 */
import { boundedInflate } from "@shared/verification/inflate";
import { verifyPdfBytes } from "@shared/verification/pdf-verifier";
import { LOCAL_FAILURE } from "@shared/verification/verdict-text";

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = async (event: MessageEvent<ArrayBuffer>) => {
  try {
    const report = await verifyPdfBytes(new Uint8Array(event.data), { inflate: boundedInflate });
    self.postMessage({ kind: "done", report });
  } catch {
    self.postMessage({ kind: "failed", message: LOCAL_FAILURE.unreadable });
  }
};
