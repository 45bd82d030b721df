/**
 * A PNG like the one the signing page's canvas exports (src/client/public-pages: 280×120 CSS px
 * at devicePixelRatio 2 = 560×240, black 2 px stroke, transparent background, anti-aliased edges):
 * for the PDF tests and the `seal` benchmark, which must embed what a real signature costs.
 * Deterministic: the same seed draws the same strokes.
 */
import { deflateSync } from "node:zlib";
import { PNG_SIGNATURE, pngChunk } from "./opaque-png.js";

export function sampleSignaturePng(options: { width?: number; height?: number; seed?: number } = {}): Buffer {
  const width = options.width ?? 560;
  const height = options.height ?? 240;
  const seed = options.seed ?? 1;
  const radius = 2; // 1 CSS px radius × DPR 2
  const alpha = new Float32Array(width * height);
  // Three cursive-like strokes across the field (sums of sines), as polylines.
  const strokes: Array<Array<[number, number]>> = [];
  for (let s = 0; s < 3; s++) {
    const points: Array<[number, number]> = [];
    const x0 = 30 + s * 170;
    for (let t = 0; t <= 160; t += 2) {
      const x = x0 + t + 12 * Math.sin((t + seed * 7 + s * 13) / 9);
      const y = height / 2 + 45 * Math.sin((t + seed * 3) / 17 + s) + 18 * Math.cos((t + s * 5) / 5);
      points.push([x, y]);
    }
    strokes.push(points);
  }
  for (const points of strokes) {
    for (let i = 1; i < points.length; i++) {
      const [ax, ay] = points[i - 1]!;
      const [bx, by] = points[i]!;
      const minX = Math.max(0, Math.floor(Math.min(ax, bx) - radius - 1));
      const maxX = Math.min(width - 1, Math.ceil(Math.max(ax, bx) + radius + 1));
      const minY = Math.max(0, Math.floor(Math.min(ay, by) - radius - 1));
      const maxY = Math.min(height - 1, Math.ceil(Math.max(ay, by) + radius + 1));
      const dx = bx - ax;
      const dy = by - ay;
      const length2 = dx * dx + dy * dy || 1;
      for (let y = minY; y <= maxY; y++) {
        for (let x = minX; x <= maxX; x++) {
          const t = Math.max(0, Math.min(1, ((x + 0.5 - ax) * dx + (y + 0.5 - ay) * dy) / length2));
          const d = Math.hypot(x + 0.5 - (ax + t * dx), y + 0.5 - (ay + t * dy));
          const a = Math.max(0, Math.min(1, radius + 0.5 - d));
          if (a > alpha[y * width + x]!) alpha[y * width + x] = a;
        }
      }
    }
  }
  // RGBA rows, filter 0: black ink (0,0,0) with its coverage as alpha, transparent elsewhere.
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows[y * (width * 4 + 1) + 1 + x * 4 + 3] = Math.round(alpha[y * width + x]! * 255);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(rows)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
