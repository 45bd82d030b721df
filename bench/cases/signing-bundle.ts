/**
 * `signing-bundle`: what a patient's phone downloads to open /assinar/:token. Builds the client
 * (both entries, as `vite build` does) into a temporary directory — or, with
 * SIGNING_BUNDLE_DIST=dist/client, reads an existing build — then parses sign.html for the
 * scripts and modulepreload links it loads and reports their gzipped size as gzip_kb
 * (target < 100, DESIGN.md §6), the stylesheets' as css_gzip_kb, and the files. median_ms and
 * p95_ms are the build time (one sample; 0 when reading an existing build).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { projectRoot } from "../../src/db/paths.js";
import type { BenchCase, BenchResult } from "../run.js";
import { round } from "../stats.js";

const log = (message: string) => process.stderr.write(`  [signing-bundle] ${message}\n`);

/** Every local script, modulepreload and stylesheet URL an HTML page loads. */
export function assetsOf(html: string): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const attr = (name: string) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, "i").exec(tag)?.[1];
    if (/^<script/i.test(tag)) {
      const src = attr("src");
      if (src) scripts.add(src);
      continue;
    }
    const rel = attr("rel")?.toLowerCase();
    const href = attr("href");
    if (!href) continue;
    if (rel === "modulepreload") scripts.add(href);
    if (rel === "stylesheet") styles.add(href);
  }
  return { scripts: [...scripts], styles: [...styles] };
}

const gzipKb = (files: string[]) =>
  round(files.reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0) / 1024, 1);

async function run(): Promise<BenchResult> {
  let dist = process.env.SIGNING_BUNDLE_DIST ? path.resolve(projectRoot, process.env.SIGNING_BUNDLE_DIST) : null;
  let buildMs = 0;
  let temp: string | null = null;
  if (!dist) {
    temp = mkdtempSync(path.join(tmpdir(), "consentir-sign-"));
    dist = temp;
    log(`vite build → ${dist}`);
    const started = performance.now();
    execFileSync(
      process.execPath,
      [
        path.join(projectRoot, "node_modules", "vite", "bin", "vite.js"),
        "build",
        "--outDir",
        dist,
        "--emptyOutDir",
        "--logLevel",
        "error",
      ],
      {
        cwd: projectRoot,
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    buildMs = performance.now() - started;
  }
  try {
    const htmlFile = path.join(dist, "sign.html");
    if (!existsSync(htmlFile)) throw new Error(`${htmlFile} não existe: rode \`npm run build:client\``);
    const { scripts, styles } = assetsOf(readFileSync(htmlFile, "utf8"));
    const local = (url: string) => path.join(dist!, url.replace(/^\//, ""));
    const jsFiles = scripts.filter((url) => !/^https?:/i.test(url)).map(local);
    const cssFiles = styles.filter((url) => !/^https?:/i.test(url)).map(local);
    if (jsFiles.length === 0) throw new Error("sign.html não carrega nenhum script");
    const gzip_kb = gzipKb(jsFiles);
    log(`scripts: ${scripts.join(", ")} → ${gzip_kb} kB gzip`);
    return {
      median_ms: round(buildMs, 0),
      p95_ms: round(buildMs, 0),
      gzip_kb,
      css_gzip_kb: gzipKb(cssFiles),
      target_gzip_kb: 100,
      within_target: gzip_kb < 100,
      js_files: jsFiles.length,
      raw_kb: round(jsFiles.reduce((sum, file) => sum + readFileSync(file).length, 0) / 1024, 1),
    };
  } finally {
    if (temp) rmSync(temp, { recursive: true, force: true });
  }
}

const signingBundle: BenchCase = {
  name: "signing-bundle",
  description: "JavaScript que a página de assinatura carrega, gzip (gzip_kb, alvo < 100)",
  run,
};
export default signingBundle;
