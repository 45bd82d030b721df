/**
 * Draws an SVG logo in a child process with a hard deadline (decision 049). A few kB of SVG can
 * chain thousands of filters or dash a long path into millions of segments: librsvg then draws
 * for minutes, on a thread other requests share, and libvips' own timeout is only checked between
 * tiles (one tile may take longer than the whole budget). A process can be killed at once.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

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
  return fromSource ? { file, execArgv: ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href] } : { file, execArgv: [] };
}

export function drawSvgInChild(svg: Buffer, options: SvgDrawOptions): Promise<Buffer> {
  const { file, execArgv } = childEntry();
  const maxOutputBytes = options.maxOutputBytes ?? 16 * 1024 * 1024;
  const args = JSON.stringify({ density: options.density, width: options.width, height: options.height, limitInputPixels: options.limitInputPixels });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...execArgv, file, args], { stdio: ["pipe", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } });
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
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish(() => reject(new SvgDrawTimeout()));
    }, options.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxOutputBytes) {
        child.kill("SIGKILL");
        finish(() => reject(new SvgDrawFailed("imagem grande demais")));
      } else out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (err.length < 2000) err += chunk.toString("utf8");
    });
    child.on("error", (error) => finish(() => reject(new SvgDrawFailed(error.message))));
    child.on("close", (code) => finish(() => (code === 0 ? resolve(Buffer.concat(out)) : reject(new SvgDrawFailed(err.trim() || `saída ${code}`)))));
    child.stdin.on("error", () => undefined);
    child.stdin.end(svg);
  });
}
