/**
 * A child process that draws one SVG logo (decision 049): the SVG on stdin, the options as the
 * first argument, the PNG on stdout. librsvg cannot be interrupted from inside a Node thread, so
 * an SVG that takes too long is ended by killing this process (draw-svg.ts).
 */
import sharp from "sharp";

interface DrawOptions {
  density: number;
  width: number;
  height: number;
  limitInputPixels: number;
}

/** Written once the modules are loaded: the parent's drawing deadline starts here, not at spawn (draw-svg.ts). */
const READY = "pronto\n";

async function main(): Promise<void> {
  process.stderr.write(READY);
  const options = JSON.parse(process.argv[2] ?? "{}") as DrawOptions;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const png = await sharp(Buffer.concat(chunks), {
    density: options.density,
    limitInputPixels: options.limitInputPixels,
    failOn: "error",
  })
    .flatten({ background: "#ffffff" })
    .resize({ width: options.width, height: options.height, fit: "inside", withoutEnlargement: true })
    .png({ compressionLevel: 9 })
    .toBuffer();
  process.stdout.end(png);
}

main().catch((error: unknown) => {
  process.stderr.write(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
