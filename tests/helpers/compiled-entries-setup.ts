import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { projectRoot } from "../../src/db/paths.js";
import { COMPILED_ROOT_ENV, COMPILED_SOURCE_DIRS } from "./node-entry.js";

/**
 * The integration files that run our entry points in processes of their own (web, worker, backup
 * and restore CLIs, the crash tests' app) start them from JavaScript made here, once per vitest
 * run, not through tsx: a child started with `--import tsx` spent ~3 CPU-s importing the app
 * through tsx's loader hooks, a compiled one under 1 s, and those files start dozens of children
 * (decision 039). esbuild transpiles each file as it is (no bundling: the output mirrors src/, so
 * `import.meta.url` paths — the PDF pool's and the PGlite thread's entries — resolve as in
 * `npm run build`'s output). Types are tsc's job (`npm run typecheck`).
 */
const EXTRA_ENTRIES = ["tests/helpers/app-process.ts"];

/**
 * Compiles into a fresh folder inside node_modules/.cache (inside the project, so bare imports
 * resolve against node_modules and `projectRoot` finds package.json above it) and returns it.
 */
async function compileEntries(): Promise<string> {
  const cache = path.join(projectRoot, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  const outdir = mkdtempSync(path.join(cache, "consentir-compiled-"));
  const entryPoints = COMPILED_SOURCE_DIRS.flatMap((dir) =>
    readdirSync(path.join(projectRoot, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
      .map((file) => path.join(projectRoot, dir, file)),
  ).concat(EXTRA_ENTRIES.map((file) => path.join(projectRoot, file)));
  try {
    await build({
      entryPoints,
      outdir,
      outbase: projectRoot,
      format: "esm",
      platform: "node",
      target: "node20",
      bundle: false,
      sourcemap: true,
      logLevel: "error",
    });
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
  return outdir;
}

/** Global setup of the integration projects: compiles, and names the folder to the workers. */
export default async function setup(): Promise<() => void> {
  const dir = await compileEntries();
  // Set before vitest forks its workers, which inherit it.
  process.env[COMPILED_ROOT_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
