/** Small statistics helpers for the benchmark cases (all figures in the caller's unit, usually ms). */

export interface Summary {
  n: number;
  min: number;
  max: number;
  mean: number;
  median: number;
  p95: number;
}

function sortedCopy(values: readonly number[]): number[] {
  if (values.length === 0) throw new RangeError("sem amostras: a lista de valores está vazia");
  for (const value of values) {
    if (!Number.isFinite(value)) throw new RangeError(`amostra inválida: ${String(value)}`);
  }
  return [...values].sort((a, b) => a - b);
}

/** Percentile of a sorted, non-empty list, by linear interpolation between closest ranks. */
function percentileOfSorted(sorted: readonly number[], p: number): number {
  const rank = (p / 100) * (sorted.length - 1);
  const lower = Math.floor(rank);
  const upper = Math.ceil(rank);
  const low = sorted[lower]!;
  const high = sorted[upper]!;
  return low + (high - low) * (rank - lower);
}

/**
 * The p-th percentile (0–100) of the values, interpolating linearly between the two closest
 * ranks (the same definition as numpy's default and R's type 7). Throws on an empty list,
 * a non-finite value or p outside [0, 100].
 */
export function percentile(values: readonly number[], p: number): number {
  if (!Number.isFinite(p) || p < 0 || p > 100) throw new RangeError(`percentil fora de [0, 100]: ${p}`);
  return percentileOfSorted(sortedCopy(values), p);
}

/** The median (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function summarize(values: readonly number[]): Summary {
  const sorted = sortedCopy(values);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    n: sorted.length,
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    mean: total / sorted.length,
    median: percentileOfSorted(sorted, 50),
    p95: percentileOfSorted(sorted, 95),
  };
}

/** Rounds for reporting (default one decimal place). */
export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
