/**
 * Draws an SVG logo in a child process with a hard deadline (decision 049). A few kB of SVG can
 * chain thousands of filters or dash a long path into millions of segments: librsvg then draws
 * for minutes, on a thread other requests share, and libvips' own timeout is only checked between
 * tiles (one tile may take longer than the whole budget). A process can be killed at once.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

/** What the child writes once loaded (svg-draw-child.ts; not imported: it draws when imported). */
const READY = "pronto\n";
/** Loading the child (sharp, libvips) may take this long at most. */
const STARTUP_LIMIT_MS = 30_000;

export class SvgDrawTimeout extends Error {
  constructor() {
    super("o desenho do SVG passou do tempo");
    this.name = "SvgDrawTimeout";
  }
}

export class SvgDrawFailed extends Error {
  constructor(readonly detail: string) {
    super(`o SVG não pôde ser desenhado: ${detail}`);
    this.name = "SvgDrawFailed";
  }
}

export interface SvgDrawOptions {
  density: number;
  width: number;
  height: number;
  limitInputPixels: number;
  timeoutMs: number;
  /** Largest PNG accepted back. */
  maxOutputBytes?: number;
}

function childEntry(): { file: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith(".ts");
  const file = fileURLToPath(new URL(`./svg-draw-child.${fromSource ? "ts" : "js"}`, import.meta.url));
  // From source (tests, npm run dev): the child loads TypeScript through tsx, as the PDF threads do.
  return fromSource
    ? { file, execArgv: ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href] }
    : { file, execArgv: [] };
}

export function drawSvgInChild(svg: Buffer, options: SvgDrawOptions): Promise<Buffer> {
  const { file, execArgv } = childEntry();
  const maxOutputBytes = options.maxOutputBytes ?? 16 * 1024 * 1024;
  const args = JSON.stringify({
    density: options.density,
    width: options.width,
    height: options.height,
    limitInputPixels: options.limitInputPixels,
  });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...execArgv, file, args], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { PATH: process.env.PATH ?? "" },
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    // The deadline is for drawing: it starts when the child says it has loaded (a child started
    // through tsx, in tests, takes seconds to load on a busy machine); loading has a cap of its own.
    const kill = (error: Error) => {
      child.kill("SIGKILL");
      finish(() => reject(error));
    };
    let timer = setTimeout(() => kill(new SvgDrawFailed("o processo de desenho não iniciou")), STARTUP_LIMIT_MS);
    let ready = false;
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxOutputBytes) {
        child.kill("SIGKILL");
        finish(() => reject(new SvgDrawFailed("imagem grande demais")));
      } else out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (err.length < 2000) err += chunk.toString("utf8");
      if (!ready && err.startsWith(READY)) {
        ready = true;
        err = err.slice(READY.length);
        clearTimeout(timer);
        timer = setTimeout(() => kill(new SvgDrawTimeout()), options.timeoutMs);
      }
    });
    child.on("error", (error) => finish(() => reject(new SvgDrawFailed(error.message))));
    child.on("close", (code) =>
      finish(() =>
        code === 0 ? resolve(Buffer.concat(out)) : reject(new SvgDrawFailed(err.trim() || `saída ${code}`)),
      ),
    );
    child.stdin.on("error", () => undefined);
    child.stdin.end(svg);
  });
}
