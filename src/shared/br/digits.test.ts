import { describe, expect, it } from "vitest";
import { isRepeatedChar, onlyDigits } from "./digits.js";

describe("onlyDigits", () => {
  it("keeps only ASCII digits, in order", () => {
    expect(onlyDigits("529.982.247-25")).toBe("52998224725");
    expect(onlyDigits("(11) 98765-4321")).toBe("11987654321");
    expect(onlyDigits("a1b2c3")).toBe("123");
  });

  it("returns an empty string when there are no digits", () => {
    expect(onlyDigits("")).toBe("");
    expect(onlyDigits("abc.-/ ")).toBe("");
  });

  it("drops non-ASCII digits (fullwidth, Arabic-Indic)", () => {
    expect(onlyDigits("１２３٤٥")).toBe("");
  });
});

describe("isRepeatedChar", () => {
  it("detects single-character repetitions", () => {
    expect(isRepeatedChar("11111111111")).toBe(true);
    expect(isRepeatedChar("AAAA")).toBe(true);
    expect(isRepeatedChar("7")).toBe(true);
  });

  it("is false for mixed strings and the empty string", () => {
    expect(isRepeatedChar("11111111112")).toBe(false);
    expect(isRepeatedChar("")).toBe(false);
  });
});
