/** The browser verifier's worker on /verificar: Vite's own chunk, loaded only when a file is checked (decision 077). */
export const moduleWorker = () =>
  new Worker(new URL("./verify-worker.ts", import.meta.url), { type: "module", name: "verificador" });
