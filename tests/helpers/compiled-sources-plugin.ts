import path from "node:path";
import type { Plugin } from "vite";
import { projectRoot } from "../../src/db/paths.js";
import { COMPILED_ROOT_ENV, COMPILED_SOURCE_DIRS } from "./node-entry.js";

/**
 * Integration projects: a test's (or a helper's) import of the app's code — `../../src/…/x.js` —
 * resolves to the same file in the run's compiled copy (compiled-entries-setup.ts), which vitest
 * then leaves to Node (it lives under node_modules/.cache). Node imports the app in ~1 s; through
 * vitest's module runner, file by file, it took ~2.7 s, in every test file (decision 039). Every
 * importer gets the same copy, so there is still one AppError, one schema, one pool per file.
 */
export function compiledSources(): Plugin {
  return {
    name: "consentir-compiled-sources",
    enforce: "pre",
    resolveId(source, importer) {
      const root = process.env[COMPILED_ROOT_ENV];
      if (!root || !importer || !source.startsWith(".") || !source.endsWith(".js")) return null;
      const target = path.relative(projectRoot, path.resolve(path.dirname(importer), source));
      if (!COMPILED_SOURCE_DIRS.some((dir) => target.startsWith(`${dir}/`))) return null;
      return path.join(root, target);
    },
  };
}
