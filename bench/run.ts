/**
 * Benchmark runner: `npm run bench -- NAME` (or `tsx bench/run.ts NAME`) runs one case,
 * `npm run bench` runs them all in sequence.
 *
 * Cases live in bench/cases/*.ts and default-export a {@link BenchCase}. Each case's result is
 * printed on stdout as ONE JSON line, `{"case": NAME, "median_ms": …, "p95_ms": …, …}`, right
 * after that case finishes; everything else (progress, build output) goes to stderr, so the
 * last stdout line of `npm run bench -- NAME` is always the case's figures.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface BenchResult extends Record<string, unknown> {
  median_ms: number;
  p95_ms: number;
}

export interface BenchCase {
  name: string;
  description: string;
  run(): Promise<BenchResult>;
}

const casesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "cases");

function isBenchCase(value: unknown): value is BenchCase {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<BenchCase>;
  return (
    typeof candidate.name === "string" &&
    typeof candidate.description === "string" &&
    typeof candidate.run === "function"
  );
}

async function loadCases(): Promise<BenchCase[]> {
  const files = readdirSync(casesDir)
    .filter((file) => /\.[cm]?ts$/.test(file) && !file.endsWith(".d.ts") && !/\.test\.[cm]?ts$/.test(file))
    .sort();
  const cases: BenchCase[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(casesDir, file)).href)) as Record<string, unknown>;
    // Default export, or the case's fields as named exports.
    const candidate = isBenchCase(module.default) ? module.default : module;
    if (!isBenchCase(candidate)) {
      throw new Error(`bench/cases/${file} não exporta { name, description, run }`);
    }
    if (cases.some((existing) => existing.name === candidate.name)) {
      throw new Error(`caso de benchmark duplicado: ${candidate.name}`);
    }
    cases.push(candidate);
  }
  return cases;
}

function listCases(cases: BenchCase[]): string {
  const width = Math.max(0, ...cases.map((c) => c.name.length));
  return cases.map((c) => `  ${c.name.padEnd(width)}  ${c.description}`).join("\n");
}

/** Runs one case; anything it logs with console.log goes to stderr so stdout stays JSON-only. */
async function runCase(benchCase: BenchCase): Promise<boolean> {
  const started = performance.now();
  process.stderr.write(`\n▶ ${benchCase.name}: ${benchCase.description}\n`);
  const originalLog = console.log;
  console.log = (...args: unknown[]) => console.error(...args);
  let result: BenchResult;
  try {
    result = await benchCase.run();
  } catch (error) {
    const cause =
      error instanceof Error && error.cause
        ? `\n  causa: ${error.cause instanceof Error ? (error.cause.stack ?? error.cause.message) : String(error.cause)}`
        : "";
    process.stderr.write(
      `✖ ${benchCase.name} falhou: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}${cause}\n`,
    );
    return false;
  } finally {
    console.log = originalLog;
  }
  if (typeof result.median_ms !== "number" || typeof result.p95_ms !== "number") {
    process.stderr.write(`✖ ${benchCase.name}: o resultado precisa de median_ms e p95_ms numéricos\n`);
    return false;
  }
  const { median_ms, p95_ms, ...rest } = result;
  delete rest.case;
  process.stderr.write(`✔ ${benchCase.name} em ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`${JSON.stringify({ case: benchCase.name, median_ms, p95_ms, ...rest })}\n`);
  return true;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((arg) => arg !== "--");
  const cases = await loadCases();
  if (args.includes("--list") || args.includes("-l")) {
    process.stderr.write(`Casos disponíveis:\n${listCases(cases)}\n`);
    return 0;
  }
  if (args.length > 1) {
    process.stderr.write(`Uso: npm run bench [-- NOME]\nCasos disponíveis:\n${listCases(cases)}\n`);
    return 1;
  }
  const name = args[0];
  if (name !== undefined) {
    const selected = cases.find((c) => c.name === name);
    if (!selected) {
      process.stderr.write(`Caso de benchmark desconhecido: "${name}".\nCasos disponíveis:\n${listCases(cases)}\n`);
      return 1;
    }
    return (await runCase(selected)) ? 0 : 1;
  }
  let failures = 0;
  for (const benchCase of cases) {
    if (!(await runCase(benchCase))) failures++;
  }
  if (failures > 0) process.stderr.write(`\n${failures} caso(s) falharam.\n`);
  return failures > 0 ? 1 : 0;
}

// Only when run as a script: cases import this module's types, never its code.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Exit explicitly: a case that leaves a handle open must not keep the runner alive.
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
