#!/usr/bin/env node
/**
 * `npm run build:server`: transpiles the server's folders (what tsconfig.server.json includes) file
 * by file into dist/server with esbuild — the output mirrors src/, so `import.meta.url` paths (the
 * PDF pool's and the PGlite thread's entries) resolve as before. Types are `npm run typecheck`'s
 * job, which checks tsconfig.server.json as tsc would compile it: tsc took ~22 s here, esbuild
 * under 2 s (decision 084).
 */
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "dist", "server");
/** tsconfig.server.json's include and exclude. */
const DIRS = ["src/server", "src/shared", "src/db", "src/pdf"];
const EXCLUDED = [/\.test\.ts$/, /^src\/db\/seed\//];

const entryPoints = DIRS.flatMap((dir) =>
  readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .map((file) => path.posix.join(dir, file.split(path.sep).join("/")))
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts") && !EXCLUDED.some((rule) => rule.test(file))),
).map((file) => path.join(root, file));

const started = Date.now();
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints,
  outdir,
  outbase: path.join(root, "src"),
  format: "esm",
  platform: "node",
  target: "node20",
  bundle: false,
  sourcemap: true,
  logLevel: "warning",
});
console.log(`build:server: ${entryPoints.length} arquivos em ${((Date.now() - started) / 1000).toFixed(1)} s`);
