/**
 * After `vite build`: writes a .br (brotli, quality 11) and a .gz (gzip -9) next to every text
 * asset of dist/client, so the server answers compressed files without compressing per request
 * (@fastify/static `preCompressed`). Files under 1 kB, and those that do not shrink, are left
 * alone. Source maps are not compressed: production does not serve them (client-app.ts).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip as gzipCompress } from "node:zlib";

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest|ttf)$/;
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCompress);

/**
 * Compresses every file at once through zlib's thread pool (brotli quality 11 is the slow part:
 * ~4.7 s for the whole client in one thread on this 2-core machine, about half side by side).
 */
export async function precompress(dir) {
  const targets = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (COMPRESSIBLE.test(entry.name) && statSync(full).size >= MIN_BYTES) targets.push(full);
    }
  };
  walk(dir);
  const sizes = await Promise.all(
    targets.map(async (full) => {
      const bytes = readFileSync(full);
      const [br, gz] = await Promise.all([
        brotli(bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        }),
        gzip(bytes, { level: 9 }),
      ]);
      if (br.length < bytes.length) writeFileSync(`${full}.br`, br);
      if (gz.length < bytes.length) writeFileSync(`${full}.gz`, gz);
      return { before: bytes.length, after: Math.min(br.length, bytes.length) };
    }),
  );
  return {
    files: sizes.length,
    before: sizes.reduce((sum, size) => sum + size.before, 0),
    after: sizes.reduce((sum, size) => sum + size.after, 0),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? fileURLToPath(new URL("../dist/client", import.meta.url));
  const { files, before, after } = await precompress(dir);
  console.log(
    `precompress: ${files} arquivos, ${(before / 1024).toFixed(0)} KiB → ${(after / 1024).toFixed(0)} KiB (brotli)`,
  );
}
