import path from "node:path";

/** Names the folder of the compiled entry points (set by compiled-entries-setup.ts, decision 039). */
export const COMPILED_ROOT_ENV = "CONSENTIR_COMPILED_ROOT";

/** The app's folders compiled there, which the integration projects then import from there. */
export const COMPILED_SOURCE_DIRS = ["src/server", "src/shared", "src/db", "src/pdf"] as const;

/**
 * `node`'s arguments to run `script` (a path under the project, e.g. "src/server/main.ts"): its
 * compiled file when the suite made them, else the source through tsx (the benches, run outside
 * vitest).
 */
export function nodeEntryArgs(script: string): string[] {
  const compiled = process.env[COMPILED_ROOT_ENV];
  return compiled ? [path.join(compiled, script.replace(/\.ts$/, ".js"))] : ["--import", "tsx", script];
}
