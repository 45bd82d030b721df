import { describe, expect, it } from "vitest";
import { median, percentile, round, summarize } from "../../bench/stats.js";

describe("median", () => {
  it("takes the middle value of an odd count, whatever the input order", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([42])).toBe(42);
  });

  it("averages the two middle values of an even count", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([10, 20])).toBe(15);
  });

  it("does not reorder the caller's array", () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it("refuses an empty list", () => {
    expect(() => median([])).toThrow(RangeError);
  });
});

describe("percentile", () => {
  const oneToTen = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];

  it("gives the extremes at 0 and 100", () => {
    expect(percentile(oneToTen, 0)).toBe(1);
    expect(percentile(oneToTen, 100)).toBe(10);
  });

  it("interpolates linearly between the closest ranks (numpy default)", () => {
    // rank = 0.95 * 9 = 8.55 → 9 + 0.55 * (10 - 9)
    expect(percentile(oneToTen, 95)).toBeCloseTo(9.55, 10);
    expect(percentile(oneToTen, 50)).toBe(5.5);
    expect(percentile([1, 2, 3, 4, 5], 25)).toBe(2);
    expect(percentile([0, 100], 10)).toBeCloseTo(10, 10);
  });

  it("returns the only value of a single-sample list for any p", () => {
    expect(percentile([7], 0)).toBe(7);
    expect(percentile([7], 95)).toBe(7);
  });

  it("refuses p outside [0, 100], empty lists and non-finite samples", () => {
    expect(() => percentile(oneToTen, -1)).toThrow(RangeError);
    expect(() => percentile(oneToTen, 101)).toThrow(RangeError);
    expect(() => percentile(oneToTen, Number.NaN)).toThrow(RangeError);
    expect(() => percentile([], 50)).toThrow(RangeError);
    expect(() => percentile([1, Number.NaN], 50)).toThrow(RangeError);
    expect(() => percentile([1, Number.POSITIVE_INFINITY], 50)).toThrow(RangeError);
  });
});

describe("summarize", () => {
  it("reports count, extremes, mean, median and p95", () => {
    const summary = summarize([4, 2, 8, 6]);
    expect(summary).toMatchObject({ n: 4, min: 2, max: 8, mean: 5, median: 5 });
    // rank = 0.95 * 3 = 2.85 → 6 + 0.85 * (8 - 6)
    expect(summary.p95).toBeCloseTo(7.7, 10);
  });

  it("agrees with median and percentile", () => {
    const values = [120.5, 98.1, 101.7, 250.2, 99.9];
    const summary = summarize(values);
    expect(summary.median).toBe(median(values));
    expect(summary.p95).toBe(percentile(values, 95));
  });

  it("refuses an empty list", () => {
    expect(() => summarize([])).toThrow(RangeError);
  });
});

describe("round", () => {
  it("rounds to one decimal by default and to the given digits otherwise", () => {
    expect(round(12.345)).toBe(12.3);
    expect(round(12.345, 0)).toBe(12);
    expect(round(12.3456, 2)).toBe(12.35);
  });
});
