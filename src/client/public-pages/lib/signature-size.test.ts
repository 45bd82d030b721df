import { describe, expect, it } from "vitest";
import { signatureFieldSize } from "./signature-size";

describe("signatureFieldSize", () => {
  it("is the spec's 280×120 on a wide screen, whatever room there is", () => {
    expect(signatureFieldSize(700, 1366)).toEqual({ width: 280, height: 120 });
    expect(signatureFieldSize(700, 768)).toEqual({ width: 280, height: 120 });
  });

  it("fills a phone's width in the 7:3 proportion, frame excluded", () => {
    // 390×844: 390 − 2×12 (page) − 2×1 (card border) − 2×16 (card padding) = 332 available, 4 of frame.
    expect(signatureFieldSize(332, 390)).toEqual({ width: 328, height: 141 });
    expect(signatureFieldSize(401.6, 767)).toEqual({ width: 397, height: 170 });
  });

  it("stops at 480 px wide and never goes below 280×120", () => {
    expect(signatureFieldSize(700, 760)).toEqual({ width: 480, height: 206 });
    expect(signatureFieldSize(250, 320)).toEqual({ width: 280, height: 120 });
    expect(signatureFieldSize(Number.NaN, 390)).toEqual({ width: 280, height: 120 });
  });
});
