#!/usr/bin/env node
// Adds the lockfile entries that `npm install` leaves out when the registry it reaches does not serve
// another platform's optional binary (e.g. @rollup/rollup-darwin-arm64 answers 404 on our mirrored
// registry). Without them `npm ci` refuses the lockfile ("Missing: … from lock file"). Each added entry
// carries the os/cpu/libc its name states, so npm skips it on other platforms without fetching it,
// exactly as with a lockfile written against the full registry. Run after changing dependencies:
//   npm install && node scripts/complete-lockfile.mjs && npm ci
// `--check` only reports (exit 1 when entries are missing); tests/unit use it.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const lockPath = fileURLToPath(new URL("../package-lock.json", import.meta.url));
const OS = ["android", "darwin", "freebsd", "linux", "openbsd", "openharmony", "sunos", "aix", "win32"];
const CPU = ["arm64", "x64", "ia32", "loong64", "ppc64", "s390x", "riscv64", "mips64el", "wasm32", "arm"];

/** Platform constraints read from a platform package's name (`…-linux-arm64-musl`, `…-wasm32-wasi`). */
export function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  if (!cpu) return null;
  const entry = {};
  if (os) entry.os = [os];
  entry.cpu = [cpu];
  if (os === "linux") entry.libc = [parts.includes("musl") ? "musl" : "glibc"];
  return entry;
}

/** Where npm would find `dep` when required from the package installed at `fromPath`. */
function resolveFrom(packages, fromPath, dep) {
  let base = fromPath;
  for (;;) {
    const candidate = `${base ? `${base}/` : ""}node_modules/${dep}`;
    if (packages[candidate]) return candidate;
    if (!base) return null;
    const idx = base.lastIndexOf("/node_modules/");
    base = idx === -1 ? "" : base.slice(0, idx);
  }
}

export function missingEntries(lock) {
  const packages = lock.packages;
  const added = {};
  for (const [path, pkg] of Object.entries(packages)) {
    for (const [dep, spec] of Object.entries(pkg.optionalDependencies ?? {})) {
      if (resolveFrom(packages, path, dep) || added[`node_modules/${dep}`]) continue;
      const platform = platformOf(dep);
      if (!platform || !/^\d+\.\d+\.\d+/.test(spec)) continue; // only exact-version platform binaries
      added[`node_modules/${dep}`] = {
        version: spec,
        ...platform,
        ...(pkg.dev ? { dev: true } : {}),
        optional: true,
      };
    }
  }
  return added;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const lock = JSON.parse(readFileSync(lockPath, "utf8"));
  const added = missingEntries(lock);
  const names = Object.keys(added);
  if (process.argv.includes("--check")) {
    if (names.length) {
      console.error(`package-lock.json sem ${names.length} binário(s) de outras plataformas: ${names.join(", ")}`);
      console.error("rode: node scripts/complete-lockfile.mjs");
      process.exit(1);
    }
    process.exit(0);
  }
  const sorted = Object.fromEntries(
    Object.entries({ ...lock.packages, ...added }).sort(([a], [b]) =>
      a === "" ? -1 : b === "" ? 1 : a.localeCompare(b),
    ),
  );
  lock.packages = sorted;
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(names.length ? `adicionadas ${names.length} entradas: ${names.join(", ")}` : "nada a adicionar");
}
