import { describe, expect, it } from "vitest";
import { formatCep, isValidCep, normalizeCep } from "./cep.js";

describe("isValidCep", () => {
  it("accepts 8 digits, masked or not", () => {
    expect(isValidCep("01310-100")).toBe(true);
    expect(isValidCep("01310100")).toBe(true);
    expect(isValidCep(" 70040-010 ")).toBe(true);
    expect(isValidCep("01.310-100")).toBe(true);
  });

  it("rejects the wrong number of digits", () => {
    expect(isValidCep("")).toBe(false);
    expect(isValidCep("0131010")).toBe(false);
    expect(isValidCep("013101000")).toBe(false);
    expect(isValidCep("1310-100")).toBe(false);
  });

  it("rejects letters and other characters", () => {
    expect(isValidCep("01310-10a")).toBe(false);
    expect(isValidCep("01310/100")).toBe(false);
  });

  it("rejects 00000-000", () => {
    expect(isValidCep("00000-000")).toBe(false);
  });

  it("returns false for non-string input", () => {
    expect(isValidCep(1310100 as unknown as string)).toBe(false);
  });
});

describe("normalizeCep", () => {
  it("returns digits only", () => {
    expect(normalizeCep("01310-100")).toBe("01310100");
    expect(normalizeCep("")).toBe("");
  });
});

describe("formatCep", () => {
  it("formats 8 digits as 00000-000, keeping leading zeros", () => {
    expect(formatCep("01310100")).toBe("01310-100");
    expect(formatCep("01310-100")).toBe("01310-100");
  });

  it("returns the input unchanged otherwise", () => {
    expect(formatCep("0131010")).toBe("0131010");
    expect(formatCep("")).toBe("");
  });
});
